import type { F1LiveClientOptions } from '@flaglight/f1-live';
import type { Logger } from '../system/log.js';
import { createConnection, type ConnectionDeps, type FallbackConnection } from './f1-fallback-connection.js';
import type { DeliveredFlag, FollowerStatus } from './follower-types.js';

/** What the status page says the companion follows. */
export const SOURCE_SERVER = 'Flaglight server';
export const SOURCE_F1_LIVE = 'F1 live timing (server unreachable)';
export type FollowSource = typeof SOURCE_SERVER | typeof SOURCE_F1_LIVE;

/** The server must be unreachable this long before the companion opens F1 live timing itself. */
export const FALLBACK_OUTAGE_MS = 15_000;
/** "Following successfully before the outage" means a live session followed within this long. */
export const FALLBACK_RECENT_LIVE_MS = 4 * 60 * 60_000;
/**
 * F1's SessionStatus saying the session is over (or not running) for this long closes the
 * connection. Longer than the breaks between qualifying parts (`Finished`, then `Inactive`).
 */
export const FALLBACK_SESSION_OVER_MS = 30 * 60_000;
/** The server's first flags within this long of its return are compared with the fallback's last. */
const HANDOVER_MS = 60_000;

/** Follower states in which the server is not answering (network errors, 5xx, a dead stream). */
const SERVER_DOWN = new Set<FollowerStatus['state']>(['connecting', 'reconnecting']);
/** Follower states that mean the server let this companion follow a live session. */
const FOLLOWING = new Set<FollowerStatus['state']>(['following', 'polling']);

export type F1FallbackState = 'off' | 'standby' | 'connecting' | 'following' | 'down';

export interface F1FallbackView {
  source: FollowSource;
  state: F1FallbackState;
  message: string | null;
  /** The last data from F1 live timing (ISO), while connected to it. */
  lastMessageAt: string | null;
}

export interface F1FallbackOptions {
  /** The F1 live-timing hub (`…/signalrcore`), or null when `--f1-live off`. */
  url: string | null;
  log: Logger;
  /** The companion's delayed playback path (the same one the server's flags take). */
  play(flags: DeliveredFlag[]): void;
  /** The lasting flag the lights show now, if any. */
  shownState(): string | null;
  /** The server's last live session key, for the events played from F1 (0 when unknown). */
  sessionKey(): number | null;
  /** When this companion last followed a live session (kept in the state file across restarts). */
  lastLiveAt: number | null;
  onLastLive?(at: number | null): void;
  outageMs?: number;
  recentLiveMs?: number;
  sessionOverMs?: number;
  now?: () => number;
  /** Time-outs and back-off of the F1 client (tests). */
  client?: Pick<F1LiveClientOptions, 'silenceTimeoutMs' | 'backoff'>;
}

export interface F1Fallback {
  /** Every status of the server follower: decides when the fallback starts and stops. */
  followerStatus(status: FollowerStatus): void;
  /** The server's flags, less the one the fallback already played when the server comes back. */
  fromServer(flags: DeliveredFlag[]): DeliveredFlag[];
  view(): F1FallbackView;
  close(): Promise<void>;
}

/**
 * Follows F1 live timing itself while the Flaglight server cannot be reached during a session, so
 * an outage on race day does not stop the room (decision 020).
 *
 * - **When.** The server has not answered for `outageMs` (network errors and 5xx: the follower is
 *   `connecting`/`reconnecting`; a 401, an unlink or a refusal is an answer and never starts it), and
 *   this companion followed a live session within `recentLiveMs`. The companion cannot check the
 *   account's plan without the server, so the server's own acceptance of its stream shortly before
 *   the outage stands for it: only an account whose plan allowed following (trial active or
 *   lifetime) gets that far, and a refusal (`refused`) or an unlink forgets it. F1's SessionStatus
 *   keeps it going (`Started`, `Aborted`); a session over for `sessionOverMs` closes it until the
 *   server announces a live session again.
 * - **What.** One connection (the F1 client reconnects by itself), TrackStatus, race control and
 *   SessionStatus through the core fusion, each change through the same delayed playback as the
 *   server's flags. The snapshot only sets the current state: it is played once, as the current
 *   flag, unless the lights already show it; old messages are never played as new.
 * - **Back.** Any answer from the server closes the F1 connection (none while the server works: the
 *   feed is unofficial and tolerated for personal, light use). If the server's first flags end on the
 *   state the fallback last played, nothing is played again; otherwise the server's state wins.
 */
export function createF1Fallback(options: F1FallbackOptions): F1Fallback {
  const { log } = options;
  const now = options.now ?? Date.now;
  const outageMs = options.outageMs ?? FALLBACK_OUTAGE_MS;
  const recentLiveMs = options.recentLiveMs ?? FALLBACK_RECENT_LIVE_MS;

  let lastLiveAt = options.lastLiveAt;
  let lastFollowerState: FollowerStatus['state'] | null = null;
  let outageTimer: NodeJS.Timeout | null = null;
  let outageSince: number | null = null;
  let active: FallbackConnection | null = null;
  let stopping: Promise<void> = Promise.resolve();
  let handover: { state: string; until: number } | null = null;
  let declinedLogged = false;
  let closed = false;
  let playedId = 0;

  const noteLive = (at: number | null) => {
    lastLiveAt = at;
    options.onLastLive?.(at);
  };

  const clearOutage = () => {
    if (outageTimer) clearTimeout(outageTimer);
    outageTimer = null;
    outageSince = null;
    declinedLogged = false;
  };

  const stopActive = (why: string) => {
    const a = active;
    if (!a) return;
    active = null;
    if (a.overTimer) clearTimeout(a.overTimer);
    if (a.deadlineTimer) clearTimeout(a.deadlineTimer);
    if (a.lastState) handover = { state: a.lastState, until: now() + HANDOVER_MS };
    log.info(`F1 live timing: connection closed (${why}).`);
    const previous = stopping;
    stopping = previous.then(() => a.client.stop()).catch(() => undefined);
  };

  const connection: ConnectionDeps = {
    log,
    now,
    sessionOverMs: options.sessionOverMs ?? FALLBACK_SESSION_OVER_MS,
    ...(options.client ? { client: options.client } : {}),
    play: (flags) => options.play(flags),
    shownState: () => options.shownState(),
    sessionKey: () => options.sessionKey(),
    nextId: () => (playedId += 1),
    isActive: (a) => active === a,
    noteLive,
    stop: stopActive,
  };

  const maybeStart = () => {
    outageTimer = null;
    if (closed || active || outageSince === null) return;
    if (options.url === null) return;
    if (lastLiveAt === null || now() - lastLiveAt > recentLiveMs) {
      if (!declinedLogged)
        log.info('The server is unreachable; no session followed recently, so not opening F1 live timing.');
      declinedLogged = true;
      return;
    }
    const a = createConnection(options.url, connection);
    active = a;
    log.warn('The Flaglight server is unreachable during a session: following F1 live timing directly.');
    a.client.start();
  };

  return {
    followerStatus(status) {
      if (closed) return;
      const t = now();
      const previous = lastFollowerState;
      lastFollowerState = status.state;
      if (FOLLOWING.has(status.state)) noteLive(t);
      if (SERVER_DOWN.has(status.state)) {
        // Leaving a followed session for an outage: it was live until now.
        if (previous !== null && FOLLOWING.has(previous)) noteLive(t);
        if (outageSince === null) {
          outageSince = t;
          outageTimer = setTimeout(maybeStart, outageMs);
          outageTimer.unref();
        }
        return;
      }
      // The server answered: it decides again.
      clearOutage();
      if (status.state === 'refused' || status.state === 'unlinked') noteLive(null);
      stopActive(`the Flaglight server answers again (${status.state})`);
    },
    fromServer(flags) {
      const taken = handover;
      if (!taken || flags.length === 0) return flags;
      handover = null;
      if (now() > taken.until) return flags;
      if (flags.at(-1)?.data.state === taken.state) {
        log.info(`The server shows ${taken.state}, as F1 live timing did: not played again.`);
        return [];
      }
      return flags;
    },
    view: () => describeFallback(active, options.url),
    async close() {
      closed = true;
      clearOutage();
      stopActive('stopping');
      await stopping;
    },
  };
}

/** What the status page says of the fallback: standby (or off), or its connection to F1. */
function describeFallback(active: FallbackConnection | null, url: string | null): F1FallbackView {
  if (!active) {
    return {
      source: SOURCE_SERVER,
      state: url === null ? 'off' : 'standby',
      message: null,
      lastMessageAt: null,
    };
  }
  const state = active.client.state();
  const at = state.lastMessageAt !== null ? new Date(state.lastMessageAt).toISOString() : null;
  if (state.connection === 'connected')
    return { source: SOURCE_F1_LIVE, state: 'following', message: null, lastMessageAt: at };
  if (state.error && state.connection !== 'connecting')
    return {
      source: SOURCE_F1_LIVE,
      state: 'down',
      message: `F1 live timing is not reachable either (${state.error}): trying again.`,
      lastMessageAt: at,
    };
  return {
    source: SOURCE_F1_LIVE,
    state: 'connecting',
    message: 'Connecting to F1 live timing…',
    lastMessageAt: at,
  };
}
