// Which sessions drive the lights and what the room does around a session: the fan's session
// filter, what a long green does (keep, dim, give the room back), and the two moments another part
// of the companion acts on: before the first change of a session, and the session's end.
import {
  AFTER_GREEN_DIM_PERCENT,
  FOLLOWED_SESSION_KINDS,
  getFollowedSessionKind,
  getSettledLook,
  isMomentary,
  isSessionFollowed,
  type FollowedSessionKind,
  type LightFollowSettings,
  type LookSet,
  type SessionDescription,
  type SessionEndAction,
} from '@flaglight/core';
import type { LightsHub } from '../lights/lights-hub.js';
import type { Logger } from '../system/log.js';
import type { FollowerStatus } from './follower-types.js';

/**
 * What the room's snapshot and restore (a module of its own) hang on. Every hook is optional: a
 * companion without them plays the flags and leaves the lights as the last flag left them.
 */
export interface SessionLightHooks {
  /**
   * Before the companion first changes a light in a followed session: once per session key in this
   * run (after a restart, once more for the same key: a snapshot kept on disk for it is kept). The
   * first flag waits for it, at most BEFORE_FIRST_CHANGE_WAIT_MS.
   */
  beforeFirstChange?(sessionKey: number): Promise<void> | void;
  /**
   * The followed session ended: the server has no live session any more, or another one went live.
   * `action` is the fan's choice (`lightFollow.sessionEnd`); the hook carries it out.
   */
  sessionEnded?(sessionKey: number, action: SessionEndAction): Promise<void> | void;
  /** Green held `afterGreen.afterSeconds` and the fan chose to give the room back then. */
  giveBack?(sessionKey: number): Promise<void> | void;
}

/** The longest the first flag of a session waits for `beforeFirstChange` (reading every light). */
export const BEFORE_FIRST_CHANGE_WAIT_MS = 5_000;
/** The longest the first flag of a session waits to learn what kind of session it is. */
export const SESSION_LOOKUP_WAIT_MS = 3_000;
/** A green dimmed after it held fades down over this long. */
export const AFTER_GREEN_DIM_FADE_MS = 2_000;

const KIND_NAMES: Record<FollowedSessionKind, string> = {
  practice: 'practice',
  qualifying: 'qualifying',
  sprint_qualifying: 'sprint qualifying',
  sprint: 'sprint',
  race: 'race',
};

export interface SessionLightsView {
  sessionKey: number | null;
  /** The kind of the session followed, when known. */
  kind: FollowedSessionKind | null;
  /** False when the fan's session filter leaves this session's lights alone. */
  followed: boolean;
  /** The status page's one plain line when the session drives no light; else null. */
  line: string | null;
}

export interface SessionLights {
  /**
   * Whether a session's flags may reach the lights: its kind is looked up once (at most
   * SESSION_LOOKUP_WAIT_MS), and for a followed session `beforeFirstChange` has run.
   */
  admit(sessionKey: number): Promise<boolean>;
  /**
   * Whether a session's flag still drives the lights at its time (behind the delay): its kind still
   * followed, and its end not carried out yet (a race's room given back after its chequered flag).
   */
  mayPlay(sessionKey: number): boolean;
  /**
   * Before a test flag: with a followed session live whose lights Flaglight has not changed yet, the
   * promise `beforeFirstChange` (the room read before the test changes it); null when there is
   * nothing to wait for (no live session, or its room read already).
   */
  beforeTest(): Promise<void> | null;
  /** The session's end was carried out (the room given back, or the lights off or left): its later flags reach no light. */
  sessionOver(sessionKey: number): void;
  /** A race flag of a session reached the lights (not a test): a green starts the after-green wait. */
  played(state: string, sessionKey: number): void;
  /** The follower's status: a followed session that ends is told to `sessionEnded`. */
  followerStatus(status: Pick<FollowerStatus, 'state' | 'sessionKey'>): void;
  /** The snapshot and restore module attaches here (replacing any hooks before). */
  setHooks(hooks: SessionLightHooks): void;
  view(): SessionLightsView;
  close(): void;
}

/** "you follow only races and sprints", for the status page. */
function describeChoice(sessions: readonly FollowedSessionKind[]): string {
  if (sessions.length === 0) return 'the account follows no sessions';
  const names = FOLLOWED_SESSION_KINDS.filter((kind) => sessions.includes(kind)).map(
    (kind) => `${KIND_NAMES[kind]}s`,
  );
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `the account follows only ${list}`;
}

/** `work`'s outcome, or `fallback` after `ms` (or when it fails, said in the log). */
function withTimeout<T>(log: Logger, work: Promise<T> | T, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
    Promise.resolve(work).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        log.warn(`Session lights: ${error instanceof Error ? error.message : String(error)}`);
        resolve(fallback);
      },
    );
  });
}

/** Each session's name and type, asked once (at most SESSION_LOOKUP_WAIT_MS); `kinds` holds those known. */
function createSessionDescriber(describe: () => Promise<SessionDescription | null>, log: Logger) {
  const described = new Map<number, Promise<SessionDescription | null>>();
  /** The last session description read: used when the server cannot be asked (an outage). */
  let lastKnown: SessionDescription | null = null;
  const kinds = new Map<number, SessionDescription | null>();
  const describeSession = (sessionKey: number) => {
    let lookup = described.get(sessionKey);
    if (!lookup) {
      lookup = describe().then(
        (session) => {
          lastKnown = session ?? lastKnown;
          kinds.set(sessionKey, session ?? lastKnown);
          return session ?? lastKnown;
        },
        () => {
          // Asked again at the next flag; meanwhile the session is the one last seen.
          described.delete(sessionKey);
          kinds.set(sessionKey, lastKnown);
          return lastKnown;
        },
      );
      described.set(sessionKey, lookup);
    }
    return withTimeout(log, lookup, SESSION_LOOKUP_WAIT_MS, lastKnown);
  };
  return { describeSession, kinds };
}

export function createSessionLights(deps: {
  /** The live session's name and type (`GET /api/f1/current`); null when none is live. */
  describe: () => Promise<SessionDescription | null>;
  follow: () => LightFollowSettings;
  looks: () => LookSet | undefined;
  hub: Pick<LightsHub, 'showLook'>;
  log: Logger;
}): SessionLights {
  const { log } = deps;
  let hooks: SessionLightHooks = {};
  const { describeSession, kinds } = createSessionDescriber(deps.describe, log);
  /** Per session: `beforeFirstChange` running or done; `read`, once it is done. */
  const firstChange = new Map<number, Promise<void>>();
  const read = new Set<number>();
  /** Sessions whose end was carried out: their flags reach no light any more. */
  const over = new Set<number>();
  /**
   * Sessions ended only because the server stopped naming them live (it said none was, or named
   * another), before their own end: a server restart or an outage mid-session says so for a while.
   * When the server follows one of them again, it is live after all and drives the lights again.
   */
  const endedByServer = new Set<number>();
  let current: number | null = null;
  let afterGreen: NodeJS.Timeout | null = null;
  let toldNoGiveBack = false;

  /** `beforeFirstChange` once per session; every change of that session waits for the same run. */
  const beforeFirstChange = (sessionKey: number): Promise<void> => {
    let running = firstChange.get(sessionKey);
    if (!running) {
      running = withTimeout(
        log,
        hooks.beforeFirstChange?.(sessionKey),
        BEFORE_FIRST_CHANGE_WAIT_MS,
        undefined,
      ).then(() => void read.add(sessionKey));
      firstChange.set(sessionKey, running);
    }
    return running;
  };

  const stopAfterGreen = () => {
    if (afterGreen) clearTimeout(afterGreen);
    afterGreen = null;
  };

  const greenHeld = (sessionKey: number) => {
    afterGreen = null;
    const { action } = deps.follow().afterGreen;
    if (action === 'dim') {
      const green = getSettledLook('green', deps.looks());
      // Green left alone: the lights show the fan's own look, nothing of Flaglight's to dim.
      if (!green) return;
      const brightness = Math.min(green.brightness, AFTER_GREEN_DIM_PERCENT / 100);
      log.info(`Green held: dimmed to ${Math.round(brightness * 100)}%`);
      deps.hub.showLook({ color: green.color, brightness }, AFTER_GREEN_DIM_FADE_MS);
    } else if (action === 'give-back') {
      if (hooks.giveBack) {
        log.info('Green held: giving the room back');
        void withTimeout(log, hooks.giveBack(sessionKey), 30_000, undefined);
      } else if (!toldNoGiveBack) {
        toldNoGiveBack = true;
        log.warn('Green held, but this companion cannot give the room back yet: the green stays.');
      }
    }
  };

  const followed = (sessionKey: number | null): boolean => {
    if (sessionKey === null) return true;
    return isSessionFollowed(deps.follow(), kinds.get(sessionKey) ?? {});
  };

  return {
    async admit(sessionKey) {
      if (over.has(sessionKey)) return false;
      const session = await describeSession(sessionKey);
      if (!isSessionFollowed(deps.follow(), session ?? {})) return false;
      await beforeFirstChange(sessionKey);
      return !over.has(sessionKey);
    },
    mayPlay: (sessionKey) => !over.has(sessionKey) && followed(sessionKey),
    beforeTest() {
      const live = current;
      // Outside a live session, or once its room was read, a test plays at once.
      if (live === null || read.has(live) || over.has(live)) return null;
      return (async () => {
        const session = await describeSession(live);
        if (isSessionFollowed(deps.follow(), session ?? {})) await beforeFirstChange(live);
      })();
    },
    sessionOver(sessionKey) {
      over.add(sessionKey);
      if (sessionKey === current) stopAfterGreen();
    },
    played(state, sessionKey) {
      // The lights go back to the flag under a momentary one, which goes on holding.
      if (isMomentary(state)) return;
      stopAfterGreen();
      const { action, afterSeconds } = deps.follow().afterGreen;
      if (state !== 'green' || action === 'keep') return;
      afterGreen = setTimeout(() => greenHeld(sessionKey), afterSeconds * 1000);
      afterGreen.unref();
    },
    followerStatus(status) {
      const next = status.state === 'waiting' ? null : status.sessionKey;
      if (next === null && status.state !== 'waiting') return;
      if (current !== null && next !== current) {
        const ended = current;
        stopAfterGreen();
        if (firstChange.has(ended) && hooks.sessionEnded) {
          if (!over.has(ended)) endedByServer.add(ended);
          void withTimeout(log, hooks.sessionEnded(ended, deps.follow().sessionEnd), 30_000, undefined);
        }
      }
      if (next !== null && next !== current && endedByServer.delete(next)) {
        // Its room was given back (or its lights left) when the server stopped naming it: read again
        // before its next flag, which plays.
        log.info(`Session ${next} is live again: its flags drive the lights again`);
        over.delete(next);
        firstChange.delete(next);
        read.delete(next);
      }
      current = next;
      if (next !== null) void describeSession(next);
    },
    setHooks(next) {
      hooks = next;
    },
    view() {
      const session = current === null ? null : (kinds.get(current) ?? null);
      const kind = session ? getFollowedSessionKind(session) : null;
      const isFollowed = followed(current);
      return {
        sessionKey: current,
        kind,
        followed: isFollowed,
        line:
          isFollowed || kind === null
            ? null
            : `This ${KIND_NAMES[kind]} session leaves your lights alone: ${describeChoice(deps.follow().sessions)} (Settings → Flags & effects).`,
      };
    },
    close: stopAfterGreen,
  };
}
