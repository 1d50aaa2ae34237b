import type { GoveeDiagnostics, GoveeLightView } from '@flaglight/contract';
import { escapeLogText, type EffectFlag } from '@flaglight/core';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { SealError, type SecretBox } from '../hue/crypto.js';
import { GOVEE_PER_DEVICE_PER_MINUTE, planFlag, toGoveeRgb, type GoveeLook } from './budget.js';
import type { GoveeCloudClient, GoveeDevice } from './client.js';
import { GOVEE_MESSAGES, goveeNotConnected, toGoveeHttpError } from './errors.js';
import { checkGoveeApiKey } from './key.js';
import { createGoveeRepository } from './repository.js';
import { createGoveeLink, type GoveeLink } from './sender.js';

/** A device list serves flags this long; Govee allows only 10 list calls a minute. */
export const GOVEE_LIST_TTL_MS = 60_000;
/** What Govee or the HTTP library said is logged this long at most. */
const GOVEE_LOG_DETAIL_MAX = 300;

export interface GoveeServiceDeps {
  db: Db;
  /** Seals keys at rest (a box of its own, derived from APP_SECRET: docs/decisions/009). */
  box: SecretBox;
  client: GoveeCloudClient;
  logger: Logger;
  now: () => Date;
  /** Tests shorten the coalescing window; the minute budget is Govee's. */
  coalesceMs?: number;
}

interface CachedList {
  sealedKey: string;
  devices: GoveeDevice[];
  fetchedAt: number;
}

const sealContext = (userId: string) => `${userId}:govee-api-key`;

function toView(device: GoveeDevice): GoveeLightView {
  return {
    id: device.device,
    label: device.deviceName,
    name: device.deviceName,
    type: device.sku,
    connected: true,
  };
}

/**
 * Each account's Govee cloud connection: the API key sealed at rest (never logged, never
 * returned), the device list cached per account, and one paced sender per account
 * (`sender.ts`) made with that account's key only.
 */
export function createGoveeService(deps: GoveeServiceDeps) {
  const repo = createGoveeRepository(deps.db);
  const links = new Map<string, GoveeLink>();
  const lists = new Map<string, CachedList>();
  const nowMs = () => deps.now().getTime();

  function drop(userId: string): void {
    links.get(userId)?.close();
    links.delete(userId);
    lists.delete(userId);
  }

  async function forgetRefusedKey(userId: string, sealedKey: string): Promise<void> {
    await repo.remove(userId, sealedKey);
    if (links.get(userId)?.sealedKey === sealedKey) links.delete(userId);
    lists.delete(userId);
  }

  /** What Govee or the HTTP library said, for the log only (the answer has the server's words). */
  function logFailure(userId: string, failure: { kind: string; detail: string }): void {
    deps.logger.warn(
      { userId, kind: failure.kind, detail: escapeLogText(failure.detail, { max: GOVEE_LOG_DETAIL_MAX }) },
      'Govee device list failed',
    );
  }

  /** The stored key, open; null when there is none or it no longer opens (APP_SECRET changed). */
  async function readKey(userId: string): Promise<{ sealed: string; key: string } | null> {
    const sealed = await repo.findSealedKey(userId);
    if (!sealed) return null;
    try {
      return { sealed, key: deps.box.open(sealed, sealContext(userId)) };
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      deps.logger.warn(
        { userId },
        'A stored Govee key does not open with this APP_SECRET: the user must add it again',
      );
      return null;
    }
  }

  /** The stored key, sealed and open; 403 govee_not_connected without a usable one. */
  async function storedKey(userId: string): Promise<{ sealed: string; key: string }> {
    const stored = await readKey(userId);
    if (!stored) throw goveeNotConnected();
    return stored;
  }

  function linkFor(userId: string, sealed: string, key: string): GoveeLink {
    const existing = links.get(userId);
    if (existing && existing.sealedKey === sealed && !existing.closed) return existing;
    existing?.close();
    const link = createGoveeLink(
      {
        client: deps.client,
        logger: deps.logger,
        now: nowMs,
        onKeyRefused: (id, sealedKey) => void forgetRefusedKey(id, sealedKey),
        ...(deps.coalesceMs === undefined ? {} : { coalesceMs: deps.coalesceMs }),
      },
      userId,
      key,
      sealed,
    );
    links.set(userId, link);
    return link;
  }

  /** The device list: cached while fresh (`fresh` forces a call). A refused key is forgotten. */
  async function devices(
    userId: string,
    { fresh = false } = {},
  ): Promise<{ devices: GoveeDevice[]; link: GoveeLink }> {
    const { sealed, key } = await storedKey(userId);
    const link = linkFor(userId, sealed, key);
    const cached = lists.get(userId);
    if (!fresh && cached && cached.sealedKey === sealed && nowMs() - cached.fetchedAt < GOVEE_LIST_TTL_MS)
      return { devices: cached.devices, link };
    const result = await deps.client.listDevices(key);
    link.learn(result.rate);
    if (!result.ok) {
      logFailure(userId, result);
      const error = toGoveeHttpError(result.kind, { retryAfterMs: result.retryAfterMs });
      link.fail(error.message);
      if (result.kind === 'key' || result.kind === 'bad-key') await forgetRefusedKey(userId, sealed);
      throw error;
    }
    lists.set(userId, { sealedKey: sealed, devices: result.value, fetchedAt: nowMs() });
    link.setDevices(result.value);
    return { devices: result.value, link };
  }

  /** The link and the checked ids: a light missing from the cached list asks Govee again once. */
  async function target(userId: string, lightIds: readonly string[]): Promise<GoveeLink> {
    let list = await devices(userId);
    const known = () => new Set(list.devices.map((d) => d.device));
    if (lightIds.some((id) => !known().has(id))) list = await devices(userId, { fresh: true });
    const unknown = lightIds.find((id) => !known().has(id));
    if (unknown) throw new HttpError(404, `${GOVEE_MESSAGES.lightNotFound}: ${unknown}`);
    return list.link;
  }

  return {
    status: async (userId: string): Promise<{ connected: boolean }> => ({
      connected: (await readKey(userId)) !== null,
    }),

    /** Checks the key by listing its devices (one call), then stores it sealed. */
    connect: async (userId: string, typed: string): Promise<{ success: true; lights: number }> => {
      const checked = checkGoveeApiKey(typed);
      if (!checked.ok) throw new HttpError(400, checked.message, {}, 'invalid_input');
      const apiKey = checked.key;
      const result = await deps.client.listDevices(apiKey);
      if (!result.ok) {
        logFailure(userId, result);
        throw toGoveeHttpError(result.kind, { connecting: true, retryAfterMs: result.retryAfterMs });
      }
      const sealed = deps.box.seal(apiKey, sealContext(userId));
      await repo.save(userId, sealed, deps.now());
      drop(userId);
      const link = linkFor(userId, sealed, apiKey);
      link.learn(result.rate);
      link.setDevices(result.value);
      lists.set(userId, { sealedKey: sealed, devices: result.value, fetchedAt: nowMs() });
      return { success: true, lights: result.value.length };
    },

    disconnect: async (userId: string): Promise<void> => {
      drop(userId);
      await repo.remove(userId);
    },

    /** `GET /api/govee/lights`: always asked for (the user wants the list as it is now). */
    listLights: async (userId: string): Promise<GoveeLightView[]> =>
      (await devices(userId, { fresh: true })).devices.map(toView),

    setState: async (
      userId: string,
      body: {
        lightIds: string[];
        on?: boolean | undefined;
        color?: { r: number; g: number; b: number } | undefined;
        brightness?: number | undefined;
      },
    ): Promise<number> => {
      const ids = [...new Set(body.lightIds)];
      const link = await target(userId, ids);
      const look: GoveeLook = {
        on: body.on ?? true,
        ...(body.color ? { rgb: toGoveeRgb(body.color) } : {}),
        ...(body.brightness === undefined ? {} : { brightness: body.brightness }),
      };
      link.setLook(ids, look);
      return ids.length;
    },

    /** A flag's settled colour on these lights, as much as the day's budget allows (budget.ts). */
    playFlag: async (userId: string, lightIds: readonly string[], flag: EffectFlag) => {
      const ids = [...new Set(lightIds)];
      const link = await target(userId, ids);
      const mode = link.mode();
      const plan = planFlag(flag, mode);
      if (plan.send && plan.look) link.playLook(ids, plan.look, plan.restoreAfterMs);
      return { sent: plan.send, mode, note: plan.note, lights: ids.length };
    },

    diagnostics: async (userId: string): Promise<GoveeDiagnostics> => {
      const sealed = await readKey(userId);
      const emptyBudget = {
        dailyLimit: 0,
        dailyRemaining: 0,
        dailyResetsAt: new Date(Math.ceil(nowMs() / 86_400_000) * 86_400_000).toISOString(),
        perDeviceMinuteLimit: GOVEE_PER_DEVICE_PER_MINUTE,
        sentToday: 0,
        mode: 'normal' as const,
      };
      const base = { lights: 0, pendingLights: 0, pausedUntil: null, lastError: null, budget: emptyBudget };
      if (!sealed)
        return {
          ...base,
          connected: false,
          reason: 'not_connected',
          message: 'Govee is not connected',
          instructions:
            'Get a key in the Govee Home app: Profile → Settings → "Apply for API Key"; Govee e-mails it. Paste it in Settings → Govee and press Connect.',
        };
      let lights = 0;
      let problem: Pick<GoveeDiagnostics, 'reason' | 'message' | 'instructions'> | null = null;
      try {
        lights = (await devices(userId)).devices.length;
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        problem =
          error.code === 'govee_key_refused' || error.code === 'govee_not_connected'
            ? {
                reason: 'key_refused',
                message: GOVEE_MESSAGES.storedKeyRefused,
                instructions: 'Apply for a new key in the Govee Home app if you lost it, then connect again.',
              }
            : error.statusCode === 429
              ? {
                  reason: 'rate_limited',
                  message: error.message,
                  instructions: 'Wait a minute, then run the diagnostics again.',
                }
              : {
                  reason: 'govee_unreachable',
                  message: error.message,
                  instructions: 'Check status.govee.com, then try again.',
                };
      }
      const link = links.get(userId);
      const status = link?.status();
      return {
        connected: problem === null,
        reason: problem?.reason ?? null,
        message: problem?.message ?? `Govee connected with ${lights} light${lights === 1 ? '' : 's'}`,
        instructions: problem?.instructions ?? null,
        lights,
        budget: status
          ? {
              dailyLimit: status.dailyLimit,
              dailyRemaining: status.dailyRemaining,
              dailyResetsAt: new Date(status.dailyResetsAt).toISOString(),
              perDeviceMinuteLimit: GOVEE_PER_DEVICE_PER_MINUTE,
              sentToday: status.sentToday,
              mode: status.mode,
            }
          : emptyBudget,
        pendingLights: status?.pendingLights ?? 0,
        pausedUntil: status?.pausedUntil ? new Date(status.pausedUntil).toISOString() : null,
        lastError: status?.lastError
          ? { message: status.lastError.message, at: new Date(status.lastError.at).toISOString() }
          : null,
      };
    },

    close: (): void => {
      for (const userId of [...links.keys()]) drop(userId);
    },
  };
}

export type GoveeService = ReturnType<typeof createGoveeService>;
