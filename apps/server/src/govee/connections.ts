// Each account's Govee connection as the service holds it: its sealed key, its paced link, and
// its device list (cached while fresh).
import { escapeLogText } from '@flaglight/core';
import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';
import { SealError } from '../hue/crypto.js';
import type { GoveeDevice, GoveeRateInfo } from './client.js';
import { GOVEE_MESSAGES, goveeNotConnected, toGoveeHttpError } from './errors.js';
import { createGoveeRepository, type GoveeRepository } from './repository.js';
import { createGoveeLink, type GoveeLink } from './sender.js';
import type { GoveeServiceDeps } from './service-deps.js';

/** A device list serves flags this long; Govee allows only 10 list calls a minute. */
export const GOVEE_LIST_TTL_MS = 60_000;
/** What Govee or the HTTP library said is logged this long at most. */
const GOVEE_LOG_DETAIL_MAX = 300;

interface CachedList {
  sealedKey: string;
  devices: GoveeDevice[];
  fetchedAt: number;
}

export const sealContext = (userId: string) => `${userId}:govee-api-key`;

/** What Govee or the HTTP library said, for the log only (the answer has the server's words). */
function logListFailure(logger: Logger, userId: string, failure: { kind: string; detail: string }): void {
  logger.warn(
    { userId, kind: failure.kind, detail: escapeLogText(failure.detail, { max: GOVEE_LOG_DETAIL_MAX }) },
    'Govee device list failed',
  );
}

/** The stored key, open; null when there is none or it no longer opens (APP_SECRET changed). */
async function openStoredKey(
  deps: GoveeServiceDeps,
  repo: GoveeRepository,
  userId: string,
): Promise<{ sealed: string; key: string } | null> {
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

export type GoveeConnections = ReturnType<typeof createGoveeConnections>;

export function createGoveeConnections(deps: GoveeServiceDeps) {
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

  const logFailure = (userId: string, failure: { kind: string; detail: string }) =>
    logListFailure(deps.logger, userId, failure);
  const readKey = (userId: string) => openStoredKey(deps, repo, userId);

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

  return {
    repo,
    drop,
    logFailure,
    readKey,
    devices,
    /** The account's link, if it has one now. */
    linkOf: (userId: string): GoveeLink | undefined => links.get(userId),

    /** A key just checked (its device list in hand) becomes the account's: a new link, a fresh list. */
    adopt(
      userId: string,
      sealed: string,
      key: string,
      list: { rate: GoveeRateInfo; value: GoveeDevice[] },
    ): void {
      drop(userId);
      const link = linkFor(userId, sealed, key);
      link.learn(list.rate);
      link.setDevices(list.value);
      lists.set(userId, { sealedKey: sealed, devices: list.value, fetchedAt: nowMs() });
    },

    /** The link and the checked ids: a light missing from the cached list asks Govee again once. */
    async target(userId: string, lightIds: readonly string[]): Promise<GoveeLink> {
      let list = await devices(userId);
      const known = () => new Set(list.devices.map((d) => d.device));
      if (lightIds.some((id) => !known().has(id))) list = await devices(userId, { fresh: true });
      const unknown = lightIds.find((id) => !known().has(id));
      if (unknown) throw new HttpError(404, `${GOVEE_MESSAGES.lightNotFound}: ${unknown}`);
      return list.link;
    },

    closeAll(): void {
      for (const userId of [...links.keys()]) drop(userId);
    },
  };
}
