import {
  createLightProgram,
  createTestProgram,
  getSettledLook,
  isMomentary,
  NO_FLASH_MIN_PERIOD_MS,
  type EffectFlag,
  type LightColor,
  type LightProgram,
  type LightStep,
  type LookSet,
} from '@flaglight/core';
import type { LightDriver } from '../driver.js';
import { toLightErrorInfo, type LightErrorInfo } from '../errors.js';
import { systemTimers, TargetScheduler, type Timers } from '../timers.js';
import { expandStrobe } from './strobe.js';

export interface EffectPlayerOptions {
  driver: LightDriver;
  /** The selected device ids, read when a flag starts (so a changed selection applies). */
  devices: () => readonly string[];
  timers?: Timers;
  /**
   * The fan's look set, read when a flag starts (so a change mid-session applies to the next flag);
   * undefined plays Trackside, SPEC §4's effects.
   */
  looks?: () => LookSet | undefined;
  onWarning?: (message: string) => void;
  onError?: (error: LightErrorInfo) => void;
  /** Called as each step is handed to the driver, a restore as the look it restores (logs, the status page, the timing benchmark). */
  onStep?: (info: {
    flag: EffectFlag;
    step: Exclude<LightStep, { kind: 'restore' }>;
    targetMs: number;
    firedAt: number;
  }) => void;
}

export interface ScheduledFlag {
  flag: EffectFlag;
  atEpochMs: number;
  cancel(): void;
}

export interface EffectPlayer {
  /** Plays a flag now. Unknown flag: warning, ignored (returns false). */
  play(flag: string): boolean;
  /**
   * Plays a flag now as a test: its effect, then back to the lasting flag's look (core's
   * createTestProgram); the lasting flag stays what it was. Unknown flag: warning, false.
   */
  playMomentary(flag: string): boolean;
  /**
   * Shows one look now (a green dimmed after it held a while): pending steps are dropped, the lasting
   * flag stays what it was (a test's restore still goes back to that flag's look).
   */
  showLook(look: { color: LightColor; brightness: number }, transitionMs: number): void;
  /**
   * Plays a flag at its target time (behind the broadcast delay). Unknown flag: warning, null.
   * `stillPlays`, asked at that time, can drop it then (its session no longer drives the lights).
   */
  schedule(flag: string, atEpochMs: number, stillPlays?: () => boolean): ScheduledFlag | null;
  /** Cancels every scheduled flag and every pending step (disconnect, user or token switch). */
  cancelAll(): void;
  /**
   * The lasting flag is over (its session's end was carried out): a later test's restore sends
   * nothing, so the lights keep what they show after it (whoever gives the room back does so).
   */
  endLasting(): void;
  /** Scheduled flags not yet started. */
  scheduled(): { flag: EffectFlag; atEpochMs: number }[];
  /** Steps of the playing program not yet sent. */
  pendingSteps(): number;
  /** The flag playing or last played. */
  current(): EffectFlag | null;
  /** Stops listening to the driver and cancels everything. */
  dispose(): void;
}

/**
 * Runs core effect programs on any driver. Every step is scheduled against one target time
 * (flag start + step offset), never by chaining waits, so steps do not drift. A new flag cancels
 * what remains of the previous one; a driver disconnect or reset cancels everything (SPEC §4).
 */
export function createEffectPlayer(options: EffectPlayerOptions): EffectPlayer {
  const { driver } = options;
  const timers = options.timers ?? systemTimers;
  const warn = options.onWarning ?? (() => undefined);
  const report = options.onError ?? (() => undefined);
  const flagTimers = new TargetScheduler(timers);
  const stepTimers = new TargetScheduler(timers);
  const scheduled = new Map<number, { flag: EffectFlag; atEpochMs: number }>();
  let current: EffectFlag | null = null;
  let lasting: EffectFlag | null = null;

  const unsubscribe = driver.subscribe((event) => {
    if (event.type === 'disconnect' || event.type === 'reset') player.cancelAll();
    else if (event.type === 'warning') warn(event.message);
  });

  const looks = () => options.looks?.();

  function program(flag: string, momentary = false): LightProgram | null {
    const result = momentary ? createTestProgram(flag, looks()) : createLightProgram(flag, looks());
    if (!result.ok) {
      warn(result.warning);
      return null;
    }
    return result.program;
  }

  /**
   * Strobes become timed set-states on drivers without a native strobe, and on every driver when
   * the strobe is a slow pulse (a period of NO_FLASH_MIN_PERIOD_MS or more, what "no flashing"
   * plays): a device's own flash (Hue signaling, Home Assistant's `flash`, a Nanoleaf effect) keeps
   * its own pace whatever the period, and would flash faster than the fan allowed.
   */
  function expand(steps: LightStep[], count: number): LightStep[] {
    return steps.flatMap((step) =>
      step.kind === 'strobe' && (!driver.nativeStrobe || step.periodMs >= NO_FLASH_MIN_PERIOD_MS)
        ? expandStrobe(step, driver.minStrobeHalfPeriodMs(count))
        : [step],
    );
  }

  /** A `restore` becomes the lasting flag's look (none before any lasting flag); other steps stay. */
  function resolve(step: LightStep): Exclude<LightStep, { kind: 'restore' }> | null {
    if (step.kind !== 'restore') return step;
    const look = lasting ? getSettledLook(lasting, looks()) : null;
    return look && { kind: 'set-state', atMs: step.atMs, ...look, transitionMs: 0 };
  }

  function send(ids: readonly string[], step: Exclude<LightStep, { kind: 'restore' }>): void {
    driver.playStep(ids, step).catch((error: unknown) => report(toLightErrorInfo(error)));
  }

  /**
   * A flag the look set leaves alone has no steps: nothing is sent and nothing is cancelled (the
   * lights keep what they show, an effect playing runs to its end), and the lasting flag stays the
   * one before, so a later restore goes back to what the lights show.
   */
  function start(prog: LightProgram, startMs: number, momentary = false): void {
    if (prog.steps.length === 0) return;
    const ids = [...options.devices()];
    if (ids.length === 0) {
      warn(`No devices selected for ${prog.flag}: skipped`);
      return;
    }
    stepTimers.cancelAll();
    driver.cancelPending();
    current = prog.flag;
    if (!isMomentary(prog.flag) && !momentary) lasting = prog.flag;
    const steps = expand(prog.steps, ids.length);
    const now = timers.now();
    steps.forEach((step, index) => {
      const targetMs = startMs + step.atMs;
      const next = steps[index + 1];
      // A flag that starts late (a sleeping tab) catches up: only the latest past step is sent.
      if (next && startMs + next.atMs <= now) return;
      stepTimers.at(targetMs, () => {
        const resolved = resolve(step);
        if (!resolved) return;
        // What is sent, as sent: a restore is reported as the look it restores.
        options.onStep?.({ flag: prog.flag, step: resolved, targetMs, firedAt: timers.now() });
        send(ids, resolved);
      });
    });
  }

  const player: EffectPlayer = {
    play(flag) {
      const prog = program(flag);
      if (!prog) return false;
      start(prog, timers.now());
      return true;
    },
    playMomentary(flag) {
      const prog = program(flag, true);
      if (!prog) return false;
      start(prog, timers.now(), true);
      return true;
    },
    showLook(look, transitionMs) {
      const ids = [...options.devices()];
      if (ids.length === 0) return;
      stepTimers.cancelAll();
      driver.cancelPending();
      const step = { kind: 'set-state' as const, atMs: 0, ...look, transitionMs };
      options.onStep?.({ flag: current ?? 'green', step, targetMs: timers.now(), firedAt: timers.now() });
      send(ids, step);
    },
    schedule(flag, atEpochMs, stillPlays) {
      const prog = program(flag);
      if (!prog) return null;
      const id = flagTimers.at(atEpochMs, () => {
        scheduled.delete(id);
        if (stillPlays && !stillPlays()) return;
        // Built again when it starts: a look changed behind the delay applies to this flag.
        start(program(prog.flag) ?? prog, atEpochMs);
      });
      scheduled.set(id, { flag: prog.flag, atEpochMs });
      return {
        flag: prog.flag,
        atEpochMs,
        cancel() {
          flagTimers.cancel(id);
          scheduled.delete(id);
        },
      };
    },
    cancelAll() {
      flagTimers.cancelAll();
      stepTimers.cancelAll();
      scheduled.clear();
      driver.cancelPending();
    },
    endLasting() {
      lasting = null;
    },
    scheduled: () => [...scheduled.values()].sort((a, b) => a.atEpochMs - b.atEpochMs),
    pendingSteps: () => stepTimers.size,
    current: () => current,
    dispose() {
      unsubscribe();
      player.cancelAll();
    },
  };
  return player;
}
