import type { LightStep } from '@flaglight/core';
import type { LightStateCommand } from '../../driver.js';
import { expandStrobe } from '../../player/strobe.js';
import { TargetScheduler, type Timers } from '../../timers.js';

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

interface Track {
  /** The look to send again when the device answers again (a strobe's solid colour). */
  last: LightStateCommand | null;
  /** Counts looks, so a late timer knows whether a newer look came. */
  generation: number;
  /** A paced strobe's later flashes. */
  flashes: TargetScheduler;
  /** Timers that belong to the current look (a strobe's guard, a busy retry), by name. */
  guards: Map<string, unknown>;
}

export interface DeviceLooks {
  /** A new look on the device: its flashes and guards end, it becomes the last look. */
  begin(id: string, look: LightStateCommand): void;
  last(id: string): LightStateCommand | null;
  /**
   * Runs `fn` after `ms` unless a newer look came first (or the device was stopped); it replaces
   * the device's timer of the same name.
   */
  guard(id: string, name: string, ms: number, fn: () => void): void;
  /**
   * A strobe as paced looks `halfPeriodMs` or more apart (for devices without a flash of their own):
   * the first is returned to send now, the others are sent at their times unless a newer look came.
   */
  pacedStrobe(
    id: string,
    step: Strobe,
    halfPeriodMs: number,
    show: (look: LightStateCommand) => void,
  ): LightStateCommand;
  /**
   * The device is given back its own state: its flashes and guards end, and it has no last look
   * (answering again later, it keeps what it shows).
   */
  release(id: string): void;
  /** Drops the paced flashes still to come (`cancelPending`, the device went away). */
  cancelFlashes(id: string): void;
  /** Flashes and guards, for every device. */
  stopAll(): void;
  /** Paced flashes still to come, over every device. */
  pendingFlashes(): number;
}

/** A strobe's colour held solid: what a device shows after it, and is sent when it answers again. */
export function solidLookOf(step: Strobe): LightStateCommand {
  return { on: true, color: step.color, brightness: step.brightness, transitionMs: 0 };
}

/** Per device: the last look, and the timers that a newer look ends (paced flashes, guards). */
export function createDeviceLooks(timers: Timers): DeviceLooks {
  const tracks = new Map<string, Track>();

  function trackOf(id: string): Track {
    let track = tracks.get(id);
    if (!track)
      tracks.set(
        id,
        (track = { last: null, generation: 0, flashes: new TargetScheduler(timers), guards: new Map() }),
      );
    return track;
  }

  function endGuards(track: Track): void {
    for (const handle of track.guards.values()) timers.clearTimeout(handle);
    track.guards.clear();
  }

  return {
    begin(id, look) {
      const track = trackOf(id);
      track.generation += 1;
      track.flashes.cancelAll();
      endGuards(track);
      track.last = look;
    },
    last: (id) => tracks.get(id)?.last ?? null,
    release(id) {
      const track = trackOf(id);
      track.generation += 1;
      track.flashes.cancelAll();
      endGuards(track);
      track.last = null;
    },
    guard(id, name, ms, fn) {
      const track = trackOf(id);
      const generation = track.generation;
      timers.clearTimeout(track.guards.get(name));
      const handle = timers.setTimeout(() => {
        track.guards.delete(name);
        if (track.generation === generation) fn();
      }, ms);
      track.guards.set(name, handle);
    },
    pacedStrobe(id, step, halfPeriodMs, show) {
      const track = trackOf(id);
      const flashes = expandStrobe(step, halfPeriodMs).map((f) => ({
        look: { on: true, color: f.color, brightness: f.brightness, transitionMs: 0 },
        afterMs: f.atMs - step.atMs,
      }));
      const start = timers.now();
      for (const f of flashes.slice(1)) track.flashes.at(start + f.afterMs, () => show(f.look));
      return flashes[0]!.look;
    },
    cancelFlashes: (id) => tracks.get(id)?.flashes.cancelAll(),
    stopAll() {
      for (const track of tracks.values()) {
        track.flashes.cancelAll();
        endGuards(track);
      }
    },
    pendingFlashes: () => [...tracks.values()].reduce((n, t) => n + t.flashes.size, 0),
  };
}
