import type { LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { solidLookOf } from '../skeleton/device-looks.js';
import type { LanKit, Strobe } from '../skeleton/lan-adapter.js';
import { asLightError, isSilence, refusalError, retryDroppedOnce } from '../skeleton/lan-errors.js';
import type { Light, Slot } from './device.js';
import { wledBaseUrl, wledRequest } from './http.js';
import { wledStateBody, wledStrobeBody } from './looks.js';

// What the WLED driver sends a device: its looks and strobes as `POST /json/state` writes, through
// the skeleton's per-device queue, to the address the device is driven at.

/** One `POST /json/state`; a write that is itself the busy retry is not retried again. */
export interface WledWrite {
  body: unknown;
  retry: boolean;
}

export interface WledWritesOptions {
  kit: LanKit<WledWrite>;
  timeoutMs?: number;
  busyRetryMs: number;
  /** A flash effect left running this long after the strobe's length is set solid. */
  strobeGuardMs: number;
  /** A device without a flash effect flashes by writes this far apart. */
  pacedHalfPeriodMs: number;
  /** A write found the address silent (time-out, refused). */
  onSilent: (slot: Slot, error: LightError) => void;
}

export interface WledWrites {
  /** Sends one write of the queue to where the device is driven now. */
  post(light: Light, write: WledWrite): Promise<void>;
  /** A look: one write. False when replaced or unreachable. */
  lookOn(light: Light, state: LightStateCommand): Promise<boolean>;
  /** A strobe: one write of the flash effect (ended by a guard if no look follows), or paced writes. */
  strobeOn(light: Light, step: Strobe): Promise<boolean>;
}

export function createWledWrites(options: WledWritesOptions): WledWrites {
  const { kit } = options;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const submit = (light: Light, body: unknown, retry = false) =>
    kit.queue.submit(light.id, [{ body, retry }]);
  const placed = (light: Light) => !kit.isClosed() && light.slot !== null;

  async function post(light: Light, write: WledWrite): Promise<void> {
    const at: { slot: Slot | null } = { slot: null };
    const name = light.info.name;
    let status: number;
    try {
      ({ status } = await retryDroppedOnce(() => {
        at.slot = light.slot;
        if (!at.slot) throw new LightError('network', `WLED "${name}" is not answering`);
        const { address, agent } = at.slot;
        return wledRequest(`${wledBaseUrl(address)}/json/state`, {
          method: 'POST',
          body: write.body,
          agent,
          ...timeout,
        });
      }, kit.isClosed));
    } catch (error) {
      const light = asLightError(error);
      if (at.slot && isSilence(light)) options.onSilent(at.slot, light);
      throw light;
    }
    if (status >= 200 && status < 300) return;
    const busy = status === 503;
    const error = refusalError(
      status,
      `WLED "${name}" refused the look (HTTP ${status}${busy ? ': busy' : ''})`,
    );
    kit.events.emit({ type: 'error', error: error.toJSON() });
    // WLED 0.15+ answers 503 while busy, with `Retry-After: 1`: the same write once more, unless a newer look came.
    if (busy && !write.retry)
      kit.looks.guard(light.id, 'busy', options.busyRetryMs, () => {
        if (placed(light)) void submit(light, write.body, true).catch(() => undefined);
      });
    throw error;
  }

  function lookOn(light: Light, state: LightStateCommand): Promise<boolean> {
    kit.looks.begin(light.id, state);
    return submit(light, wledStateBody(state, light.effects, light.info.white));
  }

  function strobeOn(light: Light, step: Strobe): Promise<boolean> {
    const solid = solidLookOf(step);
    kit.looks.begin(light.id, solid);
    const { effects } = light;
    const { white } = light.info;
    if (!effects.flash) {
      // No flash effect on this build: the flashes as paced writes, as the player would send them.
      const body = (look: LightStateCommand) => wledStateBody(look, effects, white);
      const first = kit.looks.pacedStrobe(light.id, step, options.pacedHalfPeriodMs, (look) => {
        void submit(light, body(look)).catch(() => undefined);
      });
      return submit(light, body(first));
    }
    kit.looks.guard(light.id, 'strobe', step.periodMs * step.cycles + options.strobeGuardMs, () => {
      if (placed(light)) void lookOn(light, solid).catch(() => undefined);
    });
    return submit(light, wledStrobeBody(step, effects.flash, white));
  }

  return { post, lookOn, strobeOn };
}
