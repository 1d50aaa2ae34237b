import { NO_FLASH_MAX_CHANGES_PER_SECOND, SECOND_MS, type LightStep } from '@flaglight/core';
import type { LightDriver } from '../driver.js';
import { systemTimers, type Timers } from '../timers.js';

type PlayedStep = Exclude<LightStep, { kind: 'restore' }>;

export interface ChangeLimitOptions {
  /** Whether the limit applies now (the fan's "No flashing"); read at every step. */
  active: () => boolean;
  maxPerSecond?: number;
  timers?: Timers;
}

/**
 * A driver that, while `active`, never changes its lights more than `maxPerSecond` times in any
 * second (WCAG 2.3.1's three flashes). Core's programs keep that within one program; this keeps it
 * across programs too (two flags a moment apart, a test pressed during a flag). A step that would
 * pass the limit waits for the second to clear, and a newer step replaces it, so the lights always
 * end on the latest look. While active a strobe is expanded by the player (`nativeStrobe` false) so
 * each change is counted.
 */
export function limitChanges<D extends LightDriver>(driver: D, options: ChangeLimitOptions): D {
  const timers = options.timers ?? systemTimers;
  const max = options.maxPerSecond ?? NO_FLASH_MAX_CHANGES_PER_SECOND;
  let sentAt: number[] = [];
  let waiting: { ids: readonly string[]; step: PlayedStep; resolve: () => void } | null = null;
  let timer: unknown = null;

  /**
   * The window a change counts in: a second, plus the time the driver takes to reach every light (a
   * Hue bridge's 100 ms a light), since a change queued behind others lands later than the next.
   */
  let windowMs = SECOND_MS;
  const recent = (now: number) => (sentAt = sentAt.filter((at) => at > now - windowMs));

  function send(ids: readonly string[], step: PlayedStep): Promise<void> {
    sentAt.push(timers.now());
    return driver.playStep(ids, step);
  }

  function release(): void {
    timer = null;
    const next = waiting;
    if (!next) return;
    const now = timers.now();
    const times = recent(now);
    if (times.length >= max) {
      timer = timers.setTimeout(release, (times[0] ?? now) + windowMs - now);
      return;
    }
    waiting = null;
    send(next.ids, next.step).then(next.resolve, next.resolve);
  }

  function drop(): void {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    waiting?.resolve();
    waiting = null;
  }

  const limited: LightDriver = {
    get provider() {
      return driver.provider;
    },
    get nativeStrobe() {
      return driver.nativeStrobe && !options.active();
    },
    minStrobeHalfPeriodMs: (count) => driver.minStrobeHalfPeriodMs(count),
    listDevices: () => driver.listDevices(),
    setState: (ids, state) => driver.setState(ids, state),
    playStep(ids, step) {
      if (!options.active()) return driver.playStep(ids, step);
      windowMs = SECOND_MS + driver.minStrobeHalfPeriodMs(ids.length);
      const now = timers.now();
      if (!waiting && recent(now).length < max) return send(ids, step);
      // The newest look waits for the second to clear; the one it replaces is never shown.
      waiting?.resolve();
      return new Promise<void>((resolve) => {
        waiting = { ids, step, resolve };
        if (timer === null) timer = timers.setTimeout(release, (sentAt[0] ?? now) + windowMs - now);
      });
    },
    cancelPending() {
      drop();
      driver.cancelPending();
    },
    subscribe: (listener) => driver.subscribe(listener),
  };
  // Descriptors, not values: `nativeStrobe` is read at each flag; a driver's other members stay.
  return Object.defineProperties(Object.create(driver) as D, Object.getOwnPropertyDescriptors(limited));
}
