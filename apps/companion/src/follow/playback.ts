// The companion's delayed playback: each flag reaches the lights at its time (the account's delay
// plus this room's offset), a backlog after a reconnect plays only its newest due flag, and what the
// lights show now is kept for the status page, the F1 fallback and the home outputs. A session the
// fan does not follow reaches no light (session-lights.ts), and the account's looks are played.
import { createTestProgram, type FlagEventData, type LookSet } from '@flaglight/core';
import { askOnce } from '../lights/flag-timeline.js';
import { flagLook, type LightsHub } from '../lights/lights-hub.js';
import type { Logger } from '../system/log.js';
import type { DeliveredFlag } from './follower.js';
import type { SessionLights } from './session-lights.js';

/** A flag that reaches the lights later than this after its emission is played at once. */
const LATE_GRACE_MS = 2_000;

export interface ShownFlag {
  state: string;
  message: string;
  css: string | null;
  at: string;
}

export interface Playback {
  /** Plays a flag now (a due one, a test). */
  showNow: (flag: DeliveredFlag | { state: string; message: string }) => void;
  /**
   * Plays a test now (the status page's buttons, the web app's Test your lights): the lights, and
   * what the status page says they show, go back to the race's flag when the test is over. False
   * for an unknown flag, or while the lights are paused. During a live followed session whose room
   * is not read yet, the test plays once it is (a few seconds at most).
   */
  showTest: (state: string, message: string) => boolean;
  /**
   * Flags from the server (or the F1 fallback), each played at its time; those of a session the fan
   * does not follow are dropped. Batches are handled in order (a session's first waits for its kind
   * and its snapshot); the promise is for tests.
   */
  onFlags: (flags: DeliveredFlag[]) => Promise<void>;
  shown(): ShownFlag | null;
  /** The race's flag the lights show or last showed, never a test (what Resume plays). */
  raceFlag(): ShownFlag | null;
  /** The flags waiting for their time, soonest first. */
  pending(): { state: string; at: string }[];
  /** Drops every waiting flag (unlinked, stopping). */
  clear(): void;
}

export function createPlayback(options: {
  hub: LightsHub;
  log: Logger;
  delayMs: () => number;
  /** The account's look set (what the status page says a flag shows). */
  looks?: () => LookSet | undefined;
  /** The fan's session filter and the session's moments; absent, every session drives the lights. */
  sessions?: Pick<SessionLights, 'admit' | 'played' | 'mayPlay' | 'beforeTest'>;
  /** A followed flag reached the lights (not a test). */
  onPlayed: (data: FlagEventData, delayMs: number) => void;
}): Playback {
  const { hub, log } = options;
  let shown: ShownFlag | null = null;
  /** Batches wait here for their session's admission, in order; `clear` starts a new generation. */
  let admitted: Promise<void> = Promise.resolve();
  let generation = 0;
  const pending = new Map<number, { state: string; at: number; timer: NodeJS.Timeout }>();
  let pendingId = 0;

  /** The last race flag shown (a test never is one). */
  let race: ShownFlag | null = null;
  const show = (state: string, message: string, test = false) => {
    shown = {
      state,
      message,
      css: flagLook(state, options.looks?.())?.css ?? null,
      at: new Date().toISOString(),
    };
    if (!test) race = shown;
    log.info(`Flag ${state}${message ? `: ${message}` : ''}`);
  };

  const showNow: Playback['showNow'] = (flag) => {
    const state = 'data' in flag ? flag.data.state : flag.state;
    const message = 'data' in flag ? flag.data.cause.message : flag.message;
    hub.play(state);
    if ('data' in flag) {
      options.onPlayed(flag.data, options.delayMs());
      options.sessions?.played(state, flag.data.sessionKey);
    }
    show(state, message);
  };

  const playTest = (state: string, message: string, durationMs: number) => {
    if (hub.paused() || !hub.playTest(state)) return;
    const before = shown;
    show(state, message, true);
    const during = shown;
    setTimeout(() => {
      // A race flag that came meanwhile is what shows; else the one from before the test again.
      if (shown !== during) return;
      shown = before;
      if (before) log.info(`Test over: back to ${before.state}`);
    }, durationMs).unref();
  };

  const showTest: Playback['showTest'] = (state, message) => {
    const test = createTestProgram(state);
    // Paused, the lights keep their look: a test changes nothing, and is not said to.
    if (!test.ok || hub.paused()) return false;
    // A live session's room is read before anything of Flaglight's changes it, a test included.
    const reading = options.sessions?.beforeTest() ?? null;
    if (!reading) playTest(state, message, test.program.durationMs);
    else void reading.then(() => playTest(state, message, test.program.durationMs));
    return true;
  };

  const playAtTheirTime = (flags: DeliveredFlag[]) => {
    const delay = options.delayMs();
    const now = Date.now();
    const timed = flags.map((flag) => ({
      flag,
      at: flag.receivedAt + delay - Math.max(0, flag.ageMs - LATE_GRACE_MS),
    }));
    // Of the flags already due (a backlog after a reconnect), only the newest still matters.
    const latestDue = timed.filter((entry) => entry.at <= now).at(-1);
    if (latestDue) {
      for (const [id, entry] of pending) {
        if (entry.at <= latestDue.at) {
          clearTimeout(entry.timer);
          pending.delete(id);
        }
      }
      showNow(latestDue.flag);
    }
    for (const entry of timed.filter((e) => e.at > now)) {
      const id = ++pendingId;
      const { sessionKey } = entry.flag.data;
      // Asked once, at its time (here and by the hub): a session whose kind was turned off, or whose
      // end was carried out meanwhile, no longer reaches the lights.
      const stillPlays = askOnce(() => options.sessions?.mayPlay(sessionKey) ?? true);
      // The hub plays it at its time on its own clock; this only follows what is shown.
      hub.schedule(entry.flag.data.state, entry.at, stillPlays);
      const timer = setTimeout(() => {
        pending.delete(id);
        if (!stillPlays()) return;
        options.onPlayed(entry.flag.data, delay);
        options.sessions?.played(entry.flag.data.state, entry.flag.data.sessionKey);
        show(entry.flag.data.state, entry.flag.data.cause.message);
      }, entry.at - now);
      timer.unref();
      pending.set(id, { state: entry.flag.data.state, at: entry.at, timer });
    }
  };

  return {
    showNow,
    showTest,
    onFlags(flags) {
      const mine = generation;
      admitted = admitted.then(async () => {
        const sessions = options.sessions;
        const keys = [...new Set(flags.map((flag) => flag.data.sessionKey))];
        const allowed = new Set<number>();
        for (const key of keys) if (!sessions || (await sessions.admit(key))) allowed.add(key);
        // Unlinked or stopped meanwhile: these flags no longer play.
        if (mine !== generation) return;
        const followed = flags.filter((flag) => allowed.has(flag.data.sessionKey));
        if (followed.length > 0) playAtTheirTime(followed);
      });
      return admitted;
    },
    shown: () => shown,
    raceFlag: () => race,
    pending: () =>
      [...pending.values()]
        .sort((a, b) => a.at - b.at)
        .map((p) => ({ state: p.state, at: new Date(p.at).toISOString() })),
    clear() {
      generation += 1;
      for (const entry of pending.values()) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}
