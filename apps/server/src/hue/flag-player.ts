import type { EffectFlag, LookSet } from '@flaglight/core';
import {
  createEffectPlayer,
  createHueBridgeTransport,
  createHueDriver,
  LightError,
  limitChanges,
  type EffectPlayer,
  type HueDriver,
  type HueLightInfo,
  type HueTransport,
} from '@flaglight/lights';
import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';
import type { HueRemoteClient, HueResult } from './client.js';
import type { HueConnectionStore } from './connection-store.js';
import { HUE_MESSAGES, requireHueClient, hueHttpError } from './errors.js';
import type { HueLightsClient } from './lights-client.js';

export interface HueFlagPlayerDeps {
  connection: HueConnectionStore;
  lights: HueLightsClient;
  client: HueRemoteClient | undefined;
  logger: Logger;
  /** The account's look set from its stored preferences (never the browser's word); undefined: Trackside. */
  looksOf?: (userId: string) => Promise<LookSet | undefined>;
}

interface PlayerEntry {
  applicationKey: string;
  driver: HueDriver;
  player: EffectPlayer;
  selection: string[];
  /** The account's look set as read for the flag being played. */
  looks: LookSet | undefined;
}

/** A 401 carrying an OAuth `fault` is the bearer token (any other 401 is the application key). */
async function isTokenRejection(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { fault?: unknown } | null;
  return Boolean(body?.fault);
}

interface KnownIds {
  ids: Set<string>;
  /** From the cached list (which may be older than a light). */
  cached: boolean;
}

const idsOf = (list: { lights: readonly HueLightInfo[]; cached: boolean }): KnownIds => ({
  ids: new Set(list.lights.map((light) => light.id)),
  cached: list.cached,
});

/**
 * SPEC §7 `POST /hue/lights/flag`: one effect player per user, playing core's effect with the Hue
 * driver (paced ≤ 10 commands/s, reference §3.5) over `/route/clip/v2`. Its requests take their
 * token from the connection store (the one refresh path) and its light list from the lights
 * client's cache. A changed connection drops the user's player.
 */
export function createHueFlagPlayer(deps: HueFlagPlayerDeps) {
  const { connection, lights, logger } = deps;
  const players = new Map<string, PlayerEntry>();

  function drop(userId: string): void {
    const entry = players.get(userId);
    if (!entry) return;
    players.delete(userId);
    entry.player.dispose();
    entry.driver.cancelPending();
  }
  connection.onChange(drop);

  function createEntry(userId: string, client: HueRemoteClient, key: string): PlayerEntry {
    const bridge = createHueBridgeTransport({
      baseUrl: `${client.apiUrl}/route/clip/v2/resource`,
      applicationKey: key,
      timeoutMs: client.timeoutMs,
      fetch: async (input, init) => {
        const result: HueResult<Response> = await connection.withToken(userId, async (token) => {
          const headers = new Headers(init?.headers);
          headers.set('authorization', `Bearer ${token}`);
          const response = await fetch(input, { ...init, headers });
          return (await isTokenRejection(response))
            ? { ok: false, kind: 'token', detail: 'HTTP 401' }
            : { ok: true, value: response };
        });
        // withToken marks the connection expired (and throws) on a second refusal.
        if (!result.ok) throw hueHttpError(403, 'expired');
        return result.value;
      },
    });
    const transport: HueTransport = {
      kind: 'bridge',
      listLights: async () => (await lights.knownLights(userId)).lights,
      async putLight(id, command) {
        try {
          await bridge.putLight(id, command);
        } catch (error) {
          // The bridge no longer knows this light: the cached list is out of date.
          if (error instanceof LightError && error.kind === 'not-found') lights.invalidate(userId);
          throw error;
        }
      },
    };
    const driver = createHueDriver({ transport });
    const entry: PlayerEntry = {
      applicationKey: key,
      driver,
      selection: [],
      looks: undefined,
      player: undefined!,
    };
    entry.player = createEffectPlayer({
      // With "No flashing" no Hue light changes more than 3 times a second, across flags too.
      driver: limitChanges(driver, { active: () => entry.looks?.noFlashing === true }),
      devices: () => entry.selection,
      looks: () => entry.looks,
      onError: (error) => logger.warn({ userId, error }, 'Hue flag step failed'),
      onWarning: (message) => logger.info({ userId, message }, 'Hue flag warning'),
    });
    return entry;
  }

  /** The cached light ids; a passing 429 or blip is asked once more, and that answer decides. */
  async function knownIds(userId: string): Promise<KnownIds> {
    try {
      return idsOf(await lights.knownLights(userId));
    } catch (error) {
      if (!(error instanceof HttpError) || (error.statusCode !== 429 && error.statusCode !== 502))
        throw error;
      return idsOf(await lights.knownLights(userId));
    }
  }

  return {
    /**
     * Plays the flag on these lights. Answers once the lights are checked; the effect then runs
     * for its few seconds. A newer flag replaces it. A test goes back to the race's flag after it.
     */
    play: async (
      userId: string,
      lightIds: readonly string[],
      flag: EffectFlag,
      options: { test?: boolean } = {},
    ): Promise<void> => {
      const client = requireHueClient(deps.client);
      const { key } = await connection.applicationKey(userId);
      let entry = players.get(userId);
      if (!entry || entry.applicationKey !== key) {
        drop(userId);
        entry = createEntry(userId, client, key);
        players.set(userId, entry);
      }
      let known = await knownIds(userId);
      // A light the cached list lacks may have been paired since: the list is asked for again.
      if (known.cached && lightIds.some((id) => !known.ids.has(id)))
        known = idsOf(await lights.knownLights(userId, { fresh: true }));
      const unknown = lightIds.find((id) => !known.ids.has(id));
      if (unknown) throw new HttpError(404, `${HUE_MESSAGES.lightNotFound}: ${unknown}`);
      // The driver takes the gamuts from the same cached list: no request.
      await entry.driver.connect().catch(() => undefined);
      entry.selection = [...new Set(lightIds)];
      // Read at each flag, so a look changed mid-session applies to the next flag.
      entry.looks = await deps.looksOf?.(userId);
      if (options.test) entry.player.playMomentary(flag);
      else entry.player.play(flag);
    },

    drop,

    close: (): void => {
      for (const userId of [...players.keys()]) drop(userId);
    },
  };
}

export type HueFlagPlayer = ReturnType<typeof createHueFlagPlayer>;
