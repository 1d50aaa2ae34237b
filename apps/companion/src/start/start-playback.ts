// The way a flag takes to the lights: the fan's session filter and the session's moments, the
// delayed playback, the home-automation outputs told what it played, and the F1 live-timing
// fallback feeding the same playback while the server is away.
import os from 'node:os';
import type { CompanionOptions } from '../companion-types.js';
import { createF1Fallback, type F1Fallback } from '../follow/f1-fallback.js';
import { createPlayback, type Playback } from '../follow/playback.js';
import { createSessionLights, type SessionLights } from '../follow/session-lights.js';
import { createHomeSupport, type HomeSupport } from '../home/home-support.js';
import type { LightsHub } from '../lights/lights-hub.js';
import type { ServerApi } from '../link/server-api.js';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';
import type { AccountPreferences } from './account-preferences.js';

export interface CompanionPlayback {
  home: HomeSupport;
  playback: Playback;
  fallback: F1Fallback;
  /**
   * Which sessions drive the lights, what a long green does, and the hook points of the room's
   * snapshot and restore: `sessions.setHooks({ beforeFirstChange, sessionEnded, giveBack })`.
   */
  sessions: SessionLights;
}

export function startPlayback(deps: {
  options: Pick<CompanionOptions, 'mqtt' | 'deviceName' | 'f1Live' | 'f1Fallback'>;
  store: StateFile;
  log: Logger;
  hub: LightsHub;
  api: Pick<ServerApi, 'liveSession'>;
  preferences: Pick<AccountPreferences, 'delayMs' | 'looks' | 'follow'>;
  /** The server's last live session key, for the flags played from F1. */
  sessionKey: () => number | null;
  /** A race flag reached the lights (the room's snapshot watches for the session's chequered flag). */
  flagPlayed?: (state: string, sessionKey: number) => void;
}): CompanionPlayback {
  const { options, store, log, hub, preferences } = deps;
  const home = createHomeSupport({
    mqtt: options.mqtt ?? null,
    companionName: options.deviceName ?? os.hostname(),
    store,
    log,
  });
  const sessions = createSessionLights({
    describe: async () => {
      const live = await deps.api.liveSession();
      return live && { session_name: live.name, session_type: live.type };
    },
    follow: preferences.follow,
    looks: preferences.looks,
    hub,
    log,
  });
  const playback = createPlayback({
    hub,
    log,
    delayMs: preferences.delayMs,
    looks: preferences.looks,
    sessions,
    onPlayed: (data, delay) => {
      home.played(data, fallback.view().source, delay);
      deps.flagPlayed?.(data.state, data.sessionKey);
    },
  });
  const fallback = createF1Fallback({
    url: options.f1Live ?? null,
    log,
    play: (flags) => void playback.onFlags(flags),
    shownState: () => playback.shown()?.state ?? null,
    sessionKey: deps.sessionKey,
    lastLiveAt: readTime(store.get().lastLiveAt),
    onLastLive: (at) => keepLastLive(store, at),
    ...options.f1Fallback,
  });
  return { home, playback, fallback, sessions };
}

/** When this companion last followed a live session, kept across restarts: one write a minute at most. */
function keepLastLive(store: StateFile, at: number | null): void {
  const kept = readTime(store.get().lastLiveAt);
  if (at === null ? store.get().lastLiveAt !== undefined : kept === null || at - kept >= 60_000)
    store.update((s) => ({ ...s, lastLiveAt: at === null ? undefined : new Date(at).toISOString() }));
}

function readTime(iso: string | undefined): number | null {
  const ms = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
}
