import {
  AFTER_GREEN_DIM_PERCENT,
  CHECKERED_SOLID_AFTER_MS,
  DEFAULT_LIGHT_FOLLOW,
  DEFAULT_LOOK_SET,
  getSettledLook,
  isMomentary,
  type EffectFlag,
  type FollowedSessionKind,
  type LightColor,
  type LightFollowSettings,
  type LookSet,
} from '@flaglight/core';
import { TEST_SNAPSHOT_KEY, type CloudRoom, type DrivenLights, type RoomProvider } from './cloud-room';

// When the room is read and given back around a followed session (the companion's rule, decision
// 050): read before the session's first change; a green that held `afterGreen.afterSeconds` kept,
// dimmed or given back; the session's end after the chequered flag of a race, sprint or practice
// has flashed (a live session stays live a while after it), or when the tab follows another
// session or none. A test with no session followed is read before and given back after its hold.
// A snapshot an earlier page kept (a reload mid-session) is taken up when its session is followed
// again, without reading the lights, and given back once its session is over and the lights are
// connected (`watchKept`).

/** A dim after green's look settled waits this much longer, so the settle has gone out first. */
export const DIM_AFTER_SETTLE_MS = 1_000;
/** The longest the first flag of a session waits for the lights to be read. */
export const ROOM_READ_WAIT_MS = 5_000;
/** A test is given back this long after its program ends (its last step has landed by then). */
export const TEST_GIVE_BACK_MARGIN_MS = 500;
/** A kept snapshot whose session may still be live is asked about again this often. */
export const KEPT_CHECK_MS = 15_000;
/** Kinds whose chequered flag ends the session (a qualifying's ends only a part of it). */
const ENDS_AT_CHEQUERED: ReadonlySet<FollowedSessionKind | null> = new Set([
  'race',
  'sprint',
  'practice',
  null,
]);

export interface SessionRoomDeps {
  room: CloudRoom;
  follow(): LightFollowSettings | undefined;
  looks(): LookSet | undefined;
  /** Shows one look on every driven light and the screen (a dimmed green), the flag kept. */
  dim(look: { color: LightColor; brightness: number }): void;
  warn: (message: string) => void;
}

/** What gives back a snapshot an earlier page kept. */
export interface KeptRoomChecks {
  /** Whether its session is over by now (a replay or a test stopped with the page that played it). */
  over(key: string): Promise<boolean>;
  /** Whether these providers' lights are connected, so the give-back reaches them. */
  ready(providers: RoomProvider[]): boolean;
  /** Tells when the lights' connections change. */
  subscribe(listener: () => void): () => void;
}

type Timer = ReturnType<typeof setTimeout>;

/** Waits for `work`, at most `ms`; a failure is said and waited out like the time. */
function bounded(work: Promise<void>, ms: number, warn: (message: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        warn(error instanceof Error ? error.message : String(error));
        resolve();
      },
    );
  });
}

export class SessionRoom {
  private key: string | null = null;
  private kind: FollowedSessionKind | null = null;
  /** The session's snapshot is being read: flags wait for it, in order. */
  private reading: Promise<void> | null = null;
  private taken: string | null = null;
  /** The snapshot was kept by an earlier page (its lights may have taken flags there). */
  private takenUp = false;
  /** The session ended (its chequered flag): its later flags change no light. */
  private over = false;
  /** Bumped by cancel(): a flag waiting for the read is dropped. */
  private epoch = 0;
  private afterGreen: Timer | null = null;
  private endTimer: Timer | null = null;
  private testTimer: Timer | null = null;
  private testReading: Promise<void> | null = null;
  private stopWatchingKept: (() => void) | null = null;

  constructor(private readonly deps: SessionRoomDeps) {}

  private settings(): LightFollowSettings {
    return this.deps.follow() ?? DEFAULT_LIGHT_FOLLOW;
  }

  /**
   * The session followed from now (null: none). Another session, or none, ends the one before as the
   * fan chose; the same one again (a replay moved to another minute) goes on, lights following again.
   */
  follow(key: string | null, kind: FollowedSessionKind | null): void {
    this.kind = kind;
    if (key !== null && key === this.key) {
      this.over = false;
      return;
    }
    this.key = key;
    this.over = false;
    this.reading = null;
    this.clearSessionTimers();
    // The session before (or one an earlier page kept) ends as the fan chose; a test playing with no
    // session followed goes on until one is.
    const held = this.deps.room.key();
    if (key !== null || held !== TEST_SNAPSHOT_KEY) this.endHeld(key);
    // Kept by an earlier page for this very session: its lights show the session by now, none is read.
    this.taken = held !== null && held === key ? key : null;
    this.takenUp = this.taken !== null;
    if (key !== null) this.giveTestBack();
  }

  /** Ends the snapshot held unless it is `key`'s: a test's given back, a session's as the fan chose. */
  private endHeld(key: string | null): void {
    const held = this.deps.room.key();
    if (held === null || held === key) return;
    void this.deps.room.end(held, held === TEST_SNAPSHOT_KEY ? 'as-it-was' : this.settings().sessionEnd);
  }

  /**
   * A snapshot an earlier page kept, with no session followed yet: given back (as the fan chose) once
   * its session is over and the lights are connected. Following a session ends the watch: the same
   * one takes the snapshot up, another ends it first.
   */
  watchKept(checks: KeptRoomChecks): void {
    const key = this.deps.room.key();
    if (key === null || this.key !== null) return;
    this.stopWatchingKept?.();
    const gone = () => this.deps.room.key() !== key || this.key !== null;
    let asking = false;
    let unsubscribe = (): void => undefined;
    const timer = setInterval(() => void check(), KEPT_CHECK_MS);
    const stop = () => {
      unsubscribe();
      clearInterval(timer);
      if (this.stopWatchingKept === stop) this.stopWatchingKept = null;
    };
    const check = async (): Promise<void> => {
      if (gone()) return stop();
      if (asking || !checks.ready(this.deps.room.providers())) return;
      asking = true;
      const over = await checks.over(key).catch(() => false);
      asking = false;
      if (gone()) return stop();
      if (!over) return;
      stop();
      this.endHeld(null);
    };
    this.stopWatchingKept = stop;
    unsubscribe = checks.subscribe(() => void check());
    void check();
  }

  /**
   * Runs `send` (a flag reaching the room's lights) once the session's lights are read: at once when
   * they are, after the read (at most ROOM_READ_WAIT_MS) for the first flag and those behind it.
   * Without a followed session it runs at once; after the session's end, never.
   */
  gate(send: () => void): void {
    const key = this.key;
    if (key === null) return send();
    if (this.over) return;
    if (this.taken === key && !this.reading) return send();
    if (!this.reading) {
      const reading = bounded(this.deps.room.take(key), ROOM_READ_WAIT_MS, this.deps.warn).then(() => {
        if (this.key !== key) return;
        this.taken = key;
        this.reading = null;
      });
      this.reading = reading;
    }
    const epoch = this.epoch;
    void this.reading.then(() => {
      if (epoch === this.epoch && this.key === key && !this.over) send();
    });
  }

  /**
   * Lights added to the driven ones (ticked, a provider connected) once the session's lights were
   * read, or while they are: read into its snapshot before a flag reaches them (the caller holds them
   * out until the promise settles). Null when there is nothing to read: no session, none of its
   * flags yet (the first one reads every driven light), its end carried out, or the connections
   * coming back after a reload with the snapshot an earlier page kept (that page may have driven
   * them: decision 051).
   */
  join(lights: DrivenLights, restoring: boolean): Promise<void> | null {
    const key = this.key;
    if (key === null || this.over || (this.takenUp && restoring)) return null;
    const { room } = this.deps;
    if (this.reading)
      return this.reading.then(
        () => (this.key === key && !this.over ? room.join(key, lights) : null) ?? undefined,
      );
    return this.taken === key ? room.join(key, lights) : null;
  }

  /** A lasting race flag reached the lights at `atMs`: green starts the after-green wait; chequered may end the session. */
  played(flag: EffectFlag, atMs: number): void {
    const key = this.key;
    // The lights go back to the flag under a momentary one, which goes on holding.
    if (key === null || this.over || isMomentary(flag)) return;
    if (this.afterGreen) clearTimeout(this.afterGreen);
    this.afterGreen = null;
    const { afterGreen } = this.settings();
    const wait = Math.max(0, atMs - Date.now());
    if (flag === 'green' && afterGreen.action !== 'keep')
      this.afterGreen = setTimeout(() => this.greenHeld(key), wait + this.greenHeldMs(afterGreen));
    if (flag === 'checkered' && ENDS_AT_CHEQUERED.has(this.kind)) {
      if (this.endTimer) clearTimeout(this.endTimer);
      this.endTimer = setTimeout(() => this.endByFlag(key), wait + CHECKERED_SOLID_AFTER_MS);
    }
  }

  /**
   * How long green holds before the fan's after-green action. A dim is sent beside the flag's own
   * steps, not after them: at the moment green's look settles (5 s in the presets, the shortest
   * choice) either could reach the lights last, and a settle after the dim put full green back. So
   * a dim also waits for green's look to settle, and a moment more. A give-back stops the steps.
   */
  private greenHeldMs(afterGreen: LightFollowSettings['afterGreen']): number {
    const chosen = afterGreen.afterSeconds * 1000;
    if (afterGreen.action !== 'dim') return chosen;
    const green = (this.deps.looks() ?? DEFAULT_LOOK_SET).flags.green;
    return green.kind === 'show' ? Math.max(chosen, green.effectMs + DIM_AFTER_SETTLE_MS) : chosen;
  }

  private greenHeld(key: string): void {
    this.afterGreen = null;
    if (this.key !== key || this.over) return;
    const { action } = this.settings().afterGreen;
    if (action === 'give-back') {
      void this.deps.room.giveBack(key);
      return;
    }
    if (action !== 'dim') return;
    const green = getSettledLook('green', this.deps.looks());
    // Green left alone: the lights show the fan's own look, nothing of Flaglight's to dim.
    if (green)
      this.deps.dim({
        color: green.color,
        brightness: Math.min(green.brightness, AFTER_GREEN_DIM_PERCENT / 100),
      });
  }

  private endByFlag(key: string): void {
    this.endTimer = null;
    if (this.key !== key || this.over) return;
    this.over = true;
    if (this.afterGreen) clearTimeout(this.afterGreen);
    this.afterGreen = null;
    if (this.taken === key || this.reading) void this.deps.room.end(key, this.settings().sessionEnd);
    this.taken = null;
  }

  /**
   * A test: with a session followed it plays at once (it goes back to the race's flag itself);
   * with none, the lights are read first and given back as they were once it is over (`durationMs`).
   */
  test(play: () => void, durationMs: number): void {
    if (this.key !== null) return play();
    if (this.testTimer) clearTimeout(this.testTimer);
    this.testTimer = null;
    // A snapshot an earlier page kept is given back first: the test reads the room as it was.
    if (!this.testReading) this.endHeld(TEST_SNAPSHOT_KEY);
    // A test pressed while another one plays keeps the first reading (the lights show a test now).
    this.testReading ??= bounded(this.deps.room.take(TEST_SNAPSHOT_KEY), ROOM_READ_WAIT_MS, this.deps.warn);
    const reading = this.testReading;
    void reading.then(() => {
      if (this.testReading !== reading || this.key !== null) return;
      play();
      if (this.testTimer) clearTimeout(this.testTimer);
      this.testTimer = setTimeout(() => this.giveTestBack(), durationMs + TEST_GIVE_BACK_MARGIN_MS);
    });
  }

  private giveTestBack(): void {
    if (this.testTimer) clearTimeout(this.testTimer);
    this.testTimer = null;
    if (!this.testReading) return;
    this.testReading = null;
    void this.deps.room.end(TEST_SNAPSHOT_KEY, 'as-it-was');
  }

  /**
   * Drops flags waiting for the read and the after-green wait (the feed stopped, a user switch). A
   * chequered flag's end stays due: the session is over whether or not the feed goes on.
   */
  cancel(): void {
    this.epoch += 1;
    if (this.afterGreen) clearTimeout(this.afterGreen);
    this.afterGreen = null;
  }

  private clearSessionTimers(): void {
    for (const timer of [this.afterGreen, this.endTimer]) if (timer) clearTimeout(timer);
    this.afterGreen = null;
    this.endTimer = null;
  }

  dispose(): void {
    this.stopWatchingKept?.();
    this.cancel();
    this.clearSessionTimers();
    if (this.testTimer) clearTimeout(this.testTimer);
  }
}
