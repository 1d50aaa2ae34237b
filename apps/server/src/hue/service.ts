import type { EffectFlag, LookSet } from '@flaglight/core';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import type { BrowserBinding } from './browser-binding.js';
import type { HueRemoteClient } from './client.js';
import { createHueConnectionStore } from './connection-store.js';
import type { SecretBox } from './crypto.js';
import { createHueDiagnostics } from './diagnostics.js';
import { createHueFlagPlayer } from './flag-player.js';
import { createHueLightsClient } from './lights-client.js';
import { createHueOAuth } from './oauth.js';
import { createHueRepository } from './repository.js';
import { createHueRoomStates } from './room-states.js';

export { HUE_DEVICE_TYPE } from './connection-store.js';
export type { HueDiagnostics, HueDiagnosticsReason } from './diagnostics.js';
export { HUE_MESSAGES, HUE_OAUTH_REASONS } from './errors.js';
export type { HueLightStateInput, HueLightView } from './lights-client.js';
export { HUE_STATE_TTL_MS, type HueCallbackOutcome } from './oauth.js';

export interface HueServiceDeps {
  db: Db;
  box: SecretBox;
  /** Undefined when the server has no Hue client credentials (live mode without HUE_CLIENT_ID). */
  client: HueRemoteClient | undefined;
  clientId: string | undefined;
  /** Signs the cookie that ties an OAuth flow to the browser that started it. */
  binding: BrowserBinding;
  /** The origin the browser opens the authorize page on, given the app's origin (demo: the app itself). */
  authorizeBase: (appOrigin: string) => string;
  logger: Logger;
  now: () => Date;
  /** The account's look set from its stored preferences; absent or undefined: Trackside. */
  looksOf?: (userId: string) => Promise<LookSet | undefined>;
}

/**
 * The Hue remote connection of each user, composed of its parts: OAuth (`oauth.ts`), the stored
 * connection with its one token-refresh path (`connection-store.ts`), CLIP v2 calls with a cached
 * light list (`lights-client.ts`), diagnostics (`diagnostics.ts`) and flags played server-side
 * (`flag-player.ts`).
 */
export function createHueService(deps: HueServiceDeps) {
  const repo = createHueRepository(deps.db);
  const connection = createHueConnectionStore({ repo, ...deps });
  const lights = createHueLightsClient({ connection, client: deps.client, now: deps.now });
  const oauth = createHueOAuth({ repo, connection, ...deps });
  const flags = createHueFlagPlayer({
    connection,
    lights,
    client: deps.client,
    logger: deps.logger,
    looksOf: deps.looksOf,
  });
  const room = createHueRoomStates({ lights, stopFlags: flags.drop });

  return {
    configured: deps.client !== undefined,
    status: connection.status,
    start: oauth.start,
    completeAuth: oauth.completeAuth,
    disconnect: connection.remove,
    diagnostics: createHueDiagnostics({ configured: deps.client !== undefined, connection, lights }),
    createApplicationKey: connection.createApplicationKey,
    storeApplicationKey: connection.storeApplicationKey,
    listLights: lights.listLights,
    setLightState: lights.setLightState,
    /** SPEC §7 `POST /hue/lights/flag`. */
    playFlag: (
      userId: string,
      lightIds: readonly string[],
      flag: EffectFlag,
      options: { test?: boolean } = {},
    ): Promise<void> => flags.play(userId, lightIds, flag, options),
    /** "As it was": the lights read before a session's first change, and given back after it. */
    readStates: room.read,
    restoreStates: room.restore,
    close: flags.close,
  };
}

export type HueService = ReturnType<typeof createHueService>;
