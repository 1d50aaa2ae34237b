// What the status page (and a second start) is told: the whole companion in one object.
import type { BridgeStatus } from '../bridge/local-bridge.js';
import type { LightsHub } from '../lights/lights-hub.js';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';
import { APP_VERSION } from '../version.js';
import type { FollowState } from './follow-state.js';
import type { CompanionLights } from './start-lights.js';
import type { CompanionPlayback } from './start-playback.js';

export function describeStatus(parts: {
  server: string;
  store: StateFile;
  follow: FollowState;
  flags: CompanionPlayback;
  lights: Pick<CompanionLights, 'hue' | 'govee' | 'nanoleaf'>;
  hub: LightsHub;
  log: Logger;
  delayMs: () => number;
}): BridgeStatus {
  const { server, store, follow, hub, lights, log } = parts;
  const { playback, fallback, home } = parts.flags;
  const state = store.get();
  const { pendingCode, status } = follow;
  return {
    version: APP_VERSION,
    platform: process.platform,
    linked: Boolean(state.token),
    ...(pendingCode && !state.token
      ? {
          userCode: pendingCode.user_code,
          verificationUri: pendingCode.verification_uri,
          verificationUriComplete: pendingCode.verification_uri_complete,
        }
      : {}),
    server,
    device: state.device ?? null,
    source: fallback.view().source,
    f1Live: fallback.view(),
    stream: {
      state: state.token ? status.state : 'unlinked',
      message: status.message,
      lastEventAt: status.lastEventAt ? new Date(status.lastEventAt).toISOString() : null,
    },
    session: status.sessionKey !== null ? { sessionKey: status.sessionKey } : null,
    // One plain line when the fan's session filter leaves this session's lights alone.
    sessionLights: parts.flags.sessions.view(),
    flag: playback.shown(),
    pending: playback.pending(),
    delayMs: parts.delayMs(),
    paused: hub.paused(),
    lights: hub.lights(),
    hue: lights.hue.view(),
    govee: lights.govee.view(),
    nanoleaf: lights.nanoleaf.view(),
    ...home.status(),
    log: log.recent().slice(-30),
  };
}
