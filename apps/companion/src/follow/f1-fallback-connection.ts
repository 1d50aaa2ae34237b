// One connection of the F1 live-timing fallback: the F1 client, the core fusion its TrackStatus,
// race control and SessionStatus feed, and each change played through the companion's playback.
import {
  createFlagFusion,
  isMomentary,
  type FlagEventData,
  type FlagFusion,
  type FusedLightChange,
} from '@flaglight/core';
import {
  createF1LiveClient,
  type F1LiveClient,
  type F1LiveClientOptions,
  type F1LiveState,
  type SessionStatusEvent,
} from '@flaglight/f1-live';
import type { Logger } from '../system/log.js';
import type { DeliveredFlag } from './follower-types.js';

/** F1 SessionStatus values of a running session (`Aborted` is a red flag, not the end). */
const SESSION_RUNNING = new Set(['Started', 'Aborted']);

export interface FallbackConnection {
  client: F1LiveClient;
  fusion: FlagFusion;
  sessionKey: number | null;
  /**
   * The F1 session this connection found first, and the server's session it stands in for: its
   * flags carry the server's key, so the lights and the room take them as the same session's (a
   * key of another numbering would end that session mid-race and give the room back). A later
   * F1 session, the next of the weekend, keeps its own key.
   */
  standsFor: { f1: number; server: number } | null;
  overTimer: NodeJS.Timeout | null;
  /** Withdraws a race-control lead TrackStatus has not confirmed, at its deadline (decision 025). */
  deadlineTimer: NodeJS.Timeout | null;
  /** The lasting state this fallback played or found already shown. */
  lastState: string | null;
}

export interface ConnectionDeps {
  log: Logger;
  now: () => number;
  sessionOverMs: number;
  client?: Pick<F1LiveClientOptions, 'silenceTimeoutMs' | 'backoff'>;
  /** The companion's delayed playback path (the same one the server's flags take). */
  play(flags: DeliveredFlag[]): void;
  /** The lasting flag the lights show now, if any. */
  shownState(): string | null;
  /** The server's last live session key (0 when unknown). */
  sessionKey(): number | null;
  /** The id of the next flag played from F1. */
  nextId(): number;
  /** Whether this connection is still the one the fallback follows. */
  isActive(a: FallbackConnection): boolean;
  noteLive(at: number | null): void;
  stop(why: string): void;
}

/** A connection to F1 live timing, its events wired; not started yet. */
export function createConnection(url: string, deps: ConnectionDeps): FallbackConnection {
  const a: FallbackConnection = {
    client: createF1LiveClient({ baseUrl: url, ...deps.client }),
    fusion: createFlagFusion(),
    sessionKey: null,
    standsFor: null,
    overTimer: null,
    deadlineTimer: null,
    lastState: null,
  };
  const { client } = a;
  client.on('sessionInfo', (event) => {
    if (event.sessionKey !== null && a.sessionKey !== null && event.sessionKey !== a.sessionKey) {
      // The next session of the weekend: its flags start afresh.
      a.fusion = createFlagFusion();
      armDeadline(a, deps);
    }
    a.sessionKey = event.sessionKey ?? a.sessionKey;
    const server = deps.sessionKey();
    if (a.standsFor === null && a.sessionKey !== null && server !== null && server !== 0)
      a.standsFor = { f1: a.sessionKey, server };
  });
  client.on('sessionStatus', (event) => onSessionStatus(a, event, deps));
  const changed = (change: FusedLightChange | null, source: 'snapshot' | 'feed') => {
    armDeadline(a, deps);
    // A snapshot's lines only set the current state, played once when the connection is up.
    if (change && source === 'feed' && deps.isActive(a)) play(a, change, change.at, deps);
  };
  client.on('trackStatus', (event) =>
    changed(
      a.fusion.push({
        kind: 'track_status',
        at: event.receivedAt,
        ...(event.feedTime ? { date: event.feedTime } : {}),
        status: { Status: event.status, Message: event.message ?? '' },
      }),
      event.source,
    ),
  );
  client.on('raceControl', (event) =>
    changed(
      a.fusion.push({ kind: 'race_control', at: event.receivedAt, message: event.message }),
      event.source,
    ),
  );
  client.on('state', (state) => onClientState(a, state, deps));
  return a;
}

function play(
  a: FallbackConnection,
  change: Pick<FusedLightChange, 'state' | 'activeSectors' | 'safetyCar' | 'cause'>,
  at: number,
  deps: ConnectionDeps,
): void {
  const data: FlagEventData = {
    sessionKey:
      a.standsFor !== null && a.sessionKey === a.standsFor.f1
        ? a.standsFor.server
        : (a.sessionKey ?? deps.sessionKey() ?? 0),
    state: change.state,
    activeSectors: change.activeSectors,
    safetyCar: change.safetyCar,
    cause: change.cause,
    emittedAt: new Date(deps.now()).toISOString(),
  };
  if (!isMomentary(change.state)) a.lastState = change.state;
  deps.play([{ id: deps.nextId(), data, receivedAt: at, ageMs: 0 }]);
}

/** After a snapshot: the current state, once, unless the lights already show it. */
function sync(a: FallbackConnection, deps: ConnectionDeps): void {
  const state = a.fusion.state();
  const before = a.lastState ?? deps.shownState();
  if (state === before) {
    a.lastState = state;
    return;
  }
  const at = deps.now();
  const date = new Date(at).toISOString();
  play(
    a,
    {
      state,
      activeSectors: a.fusion.activeSectors(),
      safetyCar: a.fusion.safetyCar(),
      cause: { date, message: 'Current flag from F1 live timing', source: a.fusion.trackSource() },
    },
    at,
    deps,
  );
}

function armDeadline(a: FallbackConnection, deps: ConnectionDeps): void {
  if (a.deadlineTimer) clearTimeout(a.deadlineTimer);
  a.deadlineTimer = null;
  const deadline = a.fusion.nextDeadline();
  if (deadline === null || !deps.isActive(a)) return;
  a.deadlineTimer = setTimeout(
    () => {
      a.deadlineTimer = null;
      if (!deps.isActive(a)) return;
      const change = a.fusion.push({ kind: 'clock', at: deadline });
      if (change) play(a, change, deadline, deps);
    },
    Math.max(0, deadline - deps.now()),
  );
  a.deadlineTimer.unref();
}

/** A running session keeps the connection; one over for `sessionOverMs` closes it. */
function onSessionStatus(a: FallbackConnection, event: SessionStatusEvent, deps: ConnectionDeps): void {
  a.fusion.push({ kind: 'session_status', at: event.receivedAt, status: { Status: event.status } });
  armDeadline(a, deps);
  if (SESSION_RUNNING.has(event.status)) {
    deps.noteLive(deps.now());
    if (a.overTimer) clearTimeout(a.overTimer);
    a.overTimer = null;
  } else if (a.overTimer === null) {
    a.overTimer = setTimeout(() => {
      if (!deps.isActive(a)) return;
      // Nothing live to follow: stay off F1 until the server announces a live session again.
      deps.noteLive(null);
      deps.stop('the session is over');
    }, deps.sessionOverMs);
    a.overTimer.unref();
  }
}

function onClientState(a: FallbackConnection, state: F1LiveState, deps: ConnectionDeps): void {
  if (!deps.isActive(a)) return;
  if (state.connection === 'connected') {
    deps.log.info('F1 live timing: following the session.');
    sync(a, deps);
  } else if (state.error && (state.connection === 'down' || state.connection === 'reconnecting')) {
    deps.log.warn(`F1 live timing is not reachable either (${state.error}): trying again.`);
  }
}
