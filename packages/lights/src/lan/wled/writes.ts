import type { LightStep } from '@flaglight/core';
import type { DriverEvents, LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { expandStrobe } from '../../player/strobe.js';
import type { Timers } from '../../timers.js';
import type { Light, Slot } from './device.js';
import { wledBaseUrl, wledRequest } from './http.js';
import { wledStateBody, wledStrobeBody } from './looks.js';

// What the WLED driver sends a device: its looks and strobes as writes, per device one
// `POST /json/state` in flight and one waiting, sent to the address the device is driven at.

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

/** A strobe's colour held solid: what a device shows after it, and is sent when it answers again. */
export function solidWledLook(step: Strobe): LightStateCommand {
  return { on: true, color: step.color, brightness: step.brightness, transitionMs: 0 };
}

export interface WledWritesOptions {
  timers: Timers;
  timeoutMs?: number;
  busyRetryMs: number;
  /** A flash effect left running this long after the strobe's length is set solid. */
  strobeGuardMs: number;
  /** A device without a flash effect flashes by writes this far apart. */
  pacedHalfPeriodMs: number;
  events: DriverEvents;
  isClosed: () => boolean;
  /** A write found the address silent (time-out, refused). */
  onSilent: (slot: Slot, error: LightError) => void;
}

export interface WledWrites {
  /** One write: it replaces the one still waiting (newest look wins). False when replaced or unreachable. */
  submit(light: Light, body: unknown, retry?: boolean): Promise<boolean>;
  /** The waiting write is dropped (resolved false). */
  dropNext(light: Light): void;
  /** A look: one write. */
  lookOn(light: Light, state: LightStateCommand): Promise<boolean>;
  /** A strobe: one write of the flash effect (ended by a guard if no look follows), or paced writes. */
  strobeOn(light: Light, step: Strobe): Promise<boolean>;
  /** Nothing more waits for this device: flashes, the waiting write and its timers. */
  stop(light: Light): void;
}

export function createWledWrites(options: WledWritesOptions): WledWrites {
  const { timers, events, isClosed } = options;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };

  function dropNext(light: Light): void {
    const waiting = light.next;
    light.next = null;
    waiting?.resolve(false);
  }

  async function post(light: Light, body: unknown, retry: boolean): Promise<void> {
    const name = light.info.name;
    for (let attempt = 1; ; attempt += 1) {
      const slot = light.slot;
      if (!slot) throw new LightError('network', `WLED "${name}" is not answering`);
      try {
        const { status } = await wledRequest(`${wledBaseUrl(slot.address)}/json/state`, {
          method: 'POST',
          body,
          agent: slot.agent,
          ...timeout,
        });
        if (status >= 200 && status < 300) return;
        const error = new LightError(
          status >= 500 ? 'server' : 'bad-request',
          `WLED "${name}" refused the look (HTTP ${status}${status === 503 ? ': busy' : ''})`,
          status,
        );
        events.emit({ type: 'error', error: error.toJSON() });
        if (status === 503 && !retry) retryLater(light, body);
        throw error;
      } catch (error) {
        if (!(error instanceof LightError)) throw new LightError('network', String(error));
        if (error.status !== undefined) throw error;
        // A kept-alive connection the device closed: one more try on a new one.
        if (error.kind === 'network' && attempt === 1 && !isClosed()) continue;
        if (error.kind === 'network' || error.kind === 'timeout') options.onSilent(slot, error);
        throw error;
      }
    }
  }

  function retryLater(light: Light, body: unknown): void {
    const generation = light.generation;
    timers.clearTimeout(light.timers.retry);
    light.timers.retry = timers.setTimeout(() => {
      light.timers.retry = null;
      if (light.generation === generation && !isClosed() && light.slot)
        void submit(light, body, true).catch(() => undefined);
    }, options.busyRetryMs);
  }

  function pump(light: Light): void {
    if (light.busy || isClosed() || !light.slot) return;
    const write = light.next;
    if (!write) return;
    light.next = null;
    light.busy = true;
    post(light, write.body, write.retry)
      .then(() => write.resolve(true), write.reject)
      .finally(() => {
        light.busy = false;
        pump(light);
      });
  }

  function submit(light: Light, body: unknown, retry = false): Promise<boolean> {
    dropNext(light);
    if (!light.slot || isClosed()) return Promise.resolve(false);
    return new Promise<boolean>((resolve, reject) => {
      light.next = { body, retry, resolve, reject };
      pump(light);
    });
  }

  function stop(light: Light): void {
    light.flashes.cancelAll();
    dropNext(light);
    for (const key of ['guard', 'retry'] as const) {
      timers.clearTimeout(light.timers[key]);
      light.timers[key] = null;
    }
  }

  /** A new look on one device: it ends a running flash effect's guard and any paced flashes. */
  function begin(light: Light, look: LightStateCommand): void {
    light.generation += 1;
    light.flashes.cancelAll();
    timers.clearTimeout(light.timers.guard);
    light.timers.guard = null;
    light.lastLook = look;
  }

  function lookOn(light: Light, state: LightStateCommand): Promise<boolean> {
    begin(light, state);
    return submit(light, wledStateBody(state, light.effects, light.info.white));
  }

  function strobeOn(light: Light, step: Strobe): Promise<boolean> {
    const solid = solidWledLook(step);
    begin(light, solid);
    const { effects } = light;
    const { white } = light.info;
    if (!effects.flash) {
      // No flash effect on this build: the flashes as paced writes, as the player would send them.
      const flashes = expandStrobe(step, options.pacedHalfPeriodMs);
      const body = (f: (typeof flashes)[number]) =>
        wledStateBody(
          { on: true, color: f.color, brightness: f.brightness, transitionMs: 0 },
          effects,
          white,
        );
      const start = timers.now();
      for (const f of flashes.slice(1))
        light.flashes.at(
          start + f.atMs - step.atMs,
          () => void submit(light, body(f)).catch(() => undefined),
        );
      return submit(light, body(flashes[0]!));
    }
    const generation = light.generation;
    light.timers.guard = timers.setTimeout(
      () => {
        light.timers.guard = null;
        if (light.generation === generation && !isClosed() && light.slot)
          void lookOn(light, solid).catch(() => undefined);
      },
      step.periodMs * step.cycles + options.strobeGuardMs,
    );
    return submit(light, wledStrobeBody(step, effects.flash, white));
  }

  return { submit, dropNext, lookOn, strobeOn, stop };
}
