import type { HueLightView } from '@flaglight/contract';
import type { HueLightInfo } from '@flaglight/lights';
import type { HueRemoteClient } from './client.js';
import type { HueConnectionStore } from './connection-store.js';
import { HUE_MESSAGES, requireHueClient, toHueHttpError } from './errors.js';

/** A cached light list serves flags this long before it is asked for again. */
export const HUE_LIGHT_LIST_TTL_MS = 60_000;

interface XY {
  x: number;
  y: number;
}

// A light as `GET /hue/lights` lists it: the contract's shape.
export type { HueLightView };

export interface HueLightStateInput {
  on?: boolean | undefined;
  brightness?: number | undefined;
  color?: { xy: XY } | undefined;
  duration?: number | undefined;
}

export interface HueLightsClientDeps {
  connection: HueConnectionStore;
  client: HueRemoteClient | undefined;
  now: () => Date;
  /** Default `HUE_LIGHT_LIST_TTL_MS`. */
  listTtlMs?: number;
}

interface CachedList {
  /** The sealed application key the list was read with: another key, another bridge maybe. */
  sealedKey: string;
  lights: HueLightInfo[];
  fetchedAt: number;
}

/**
 * CLIP v2 through the remote API for one user at a time, with the user's token and application
 * key. The light list is kept per user, so flags do not ask for it each time, until it may have
 * changed: a light the bridge does not know (404), a changed connection (new tokens or key,
 * forgotten key, expiry, disconnect), or after `HUE_LIGHT_LIST_TTL_MS`.
 */
export function createHueLightsClient(deps: HueLightsClientDeps) {
  const { connection } = deps;
  const ttlMs = deps.listTtlMs ?? HUE_LIGHT_LIST_TTL_MS;
  const cache = new Map<string, CachedList>();
  // Bumped by every invalidation, so a list read before it is not cached after it.
  const generations = new Map<string, number>();

  function invalidate(userId: string): void {
    cache.delete(userId);
    generations.set(userId, (generations.get(userId) ?? 0) + 1);
  }
  connection.onChange(invalidate);

  /** A CLIP v2 call with the stored key; a key the bridge refuses is forgotten. */
  async function clip(userId: string, method: 'GET' | 'PUT', resource: string, body?: unknown) {
    const { sealed, key } = await connection.applicationKey(userId);
    const client = requireHueClient(deps.client);
    const result = await connection.withToken(userId, (token) =>
      client.clip(token, key, method, resource, body),
    );
    if (!result.ok && result.kind === 'app-key')
      await connection.forgetApplicationKey(userId, sealed, result.detail);
    return { result, sealed };
  }

  /** Reads the light list and keeps it for the flags. */
  async function fetchLights(userId: string): Promise<ClipLight[]> {
    const generation = generations.get(userId) ?? 0;
    const { result, sealed } = await clip(userId, 'GET', 'light');
    if (!result.ok) throw toHueHttpError(result.kind, result.detail, HUE_MESSAGES.unreachable);
    const lights = result.value as ClipLight[];
    if ((generations.get(userId) ?? 0) === generation)
      cache.set(userId, {
        sealedKey: sealed,
        lights: lights.map(toLightInfo),
        fetchedAt: deps.now().getTime(),
      });
    return lights;
  }

  return {
    clip: async (userId: string, method: 'GET' | 'PUT', resource: string, body?: unknown) =>
      (await clip(userId, method, resource, body)).result,

    invalidate,

    /** `GET /hue/lights`: always asked for (the user wants the list as it is), with reachability. */
    listLights: async (userId: string): Promise<HueLightView[]> => {
      const lights = await fetchLights(userId);
      // Reachability lives on the device's zigbee_connectivity; a bridge without it counts as reachable.
      const { result: connectivity } = await clip(userId, 'GET', 'zigbee_connectivity');
      const status = new Map<string, string>();
      if (connectivity.ok)
        for (const item of connectivity.value as Array<{ owner?: { rid?: string }; status?: string }>)
          if (item.owner?.rid && item.status) status.set(item.owner.rid, item.status);
      return lights.map((light) => toLightView(light, status));
    },

    /**
     * The lights a flag may use: the cached list while it holds (`cached`), else a fresh one
     * (`fresh` forces it).
     */
    knownLights: async (
      userId: string,
      { fresh = false } = {},
    ): Promise<{ lights: HueLightInfo[]; cached: boolean }> => {
      const cached = cache.get(userId);
      if (!fresh && cached && deps.now().getTime() - cached.fetchedAt < ttlMs) {
        const { sealed } = await connection.applicationKey(userId);
        if (sealed === cached.sealedKey) return { lights: cached.lights, cached: true };
      }
      return { lights: (await fetchLights(userId)).map(toLightInfo), cached: false };
    },

    setLightState: async (userId: string, lightId: string, input: HueLightStateInput): Promise<void> => {
      const body = {
        ...(input.on === undefined ? {} : { on: { on: input.on } }),
        ...(input.brightness === undefined ? {} : { dimming: { brightness: input.brightness } }),
        ...(input.color ? { color: { xy: input.color.xy } } : {}),
        ...(input.duration === undefined ? {} : { dynamics: { duration: input.duration } }),
      };
      const { result } = await clip(userId, 'PUT', `light/${encodeURIComponent(lightId)}`, body);
      if (result.ok) return;
      // An unknown light: the list changed (a light removed in the Hue app).
      if (result.kind === 'not-found') invalidate(userId);
      throw toHueHttpError(result.kind, result.detail, HUE_MESSAGES.commandRefused);
    },
  };
}

export type HueLightsClient = ReturnType<typeof createHueLightsClient>;

interface ClipLight {
  id: string;
  type?: string;
  owner?: { rid?: string };
  metadata?: { name?: string; archetype?: string };
  on?: { on?: boolean };
  dimming?: { brightness?: number };
  color?: { xy?: XY; gamut?: { red: XY; green: XY; blue: XY } };
}

/** What the Hue driver needs of a light (as packages/lights' bridge transport reads it). */
function toLightInfo(light: ClipLight): HueLightInfo {
  return {
    id: light.id,
    name: light.metadata?.name ?? light.id,
    type: light.type ?? 'light',
    ...(light.color?.gamut ? { gamut: light.color.gamut } : {}),
  };
}

function toLightView(light: ClipLight, connectivity: Map<string, string>): HueLightView {
  const name = light.metadata?.name ?? light.id;
  const status = light.owner?.rid ? connectivity.get(light.owner.rid) : undefined;
  const reachable = status === undefined || status === 'connected';
  return {
    id: light.id,
    name,
    label: name,
    type: light.type ?? 'light',
    archetype: light.metadata?.archetype ?? null,
    on: light.on?.on === true,
    brightness: typeof light.dimming?.brightness === 'number' ? light.dimming.brightness : null,
    color: light.color?.xy ? { xy: { x: light.color.xy.x, y: light.color.xy.y } } : null,
    ...(light.color?.gamut ? { gamut: light.color.gamut } : {}),
    reachable,
    connected: reachable,
  };
}
