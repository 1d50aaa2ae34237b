import { isOff, type LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { solidLookOf } from '../skeleton/device-looks.js';
import type { LanKit, Strobe } from '../skeleton/lan-adapter.js';
import { asLightError, isSilence, refusalError, retryDroppedOnce } from '../skeleton/lan-errors.js';
import { CONTROLLER_KEY, type NanoleafController } from './controller.js';
import { NANOLEAF_PACED_HALF_PERIOD_MS } from './driver-types.js';
import { ledPanels, strobeEffect, toStateBody } from './effects.js';
import { nanoleafRequest } from './http.js';
import { NANOLEAF_TOKEN_REVOKED } from './pairing.js';

// What the Nanoleaf driver sends its controller: a look as one `PUT /state`, a strobe as one looping
// `custom` effect (`PUT /effects`, with the brightness that scales it) or paced `/state` writes,
// through the skeleton's queue.

/** One `PUT` to the controller's OpenAPI. */
export interface NanoleafWrite {
  path: '/state' | '/effects';
  body: unknown;
}

export interface NanoleafWritesOptions {
  kit: LanKit<NanoleafWrite>;
  controller: NanoleafController;
  timeoutMs?: number | undefined;
  /** A looping effect left running this long after the strobe's length is set solid. */
  strobeGuardMs: number;
}

export interface NanoleafWrites {
  /** Sends one write of the queue; a silent controller is reported, a refused token stops the driver. */
  put(write: NanoleafWrite): Promise<void>;
  lookOn(state: LightStateCommand): Promise<void>;
  strobeOn(step: Strobe): Promise<void>;
  /** The controller went silent: what it shows is not known any more. */
  forgetShown(): void;
}

const stateWrite = (look: LightStateCommand): NanoleafWrite => ({ path: '/state', body: toStateBody(look) });

export function createNanoleafWrites(options: NanoleafWritesOptions): NanoleafWrites {
  const { kit, controller } = options;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  /** What the device shows, as far as we know: the brightness an effect is scaled by. */
  let shown: { on: boolean; brightness: number } | null = null;
  const submit = (writes: NanoleafWrite[]) => kit.queue.submit(CONTROLLER_KEY, writes);

  async function put(write: NanoleafWrite): Promise<void> {
    let status: number;
    try {
      // Controllers drop connections under load; one more try (reference §1 "Pacing").
      ({ status } = await retryDroppedOnce(
        () =>
          nanoleafRequest(`${controller.apiUrl()}${write.path}`, {
            method: 'PUT',
            body: write.body,
            agent: controller.agent,
            ...timeout,
          }),
        kit.isClosed,
      ));
    } catch (error) {
      const light = asLightError(error);
      if (isSilence(light)) controller.lost(light);
      throw light;
    }
    if (status === 401 || status === 403) {
      controller.revoke();
      throw new LightError('auth', NANOLEAF_TOKEN_REVOKED, status);
    }
    if (status < 200 || status >= 300)
      throw refusalError(status, `Nanoleaf "${controller.name()}" refused ${write.path} (HTTP ${status})`);
  }

  async function lookOn(state: LightStateCommand): Promise<void> {
    kit.looks.begin(CONTROLLER_KEY, state);
    const on = !isOff(state);
    if (await submit([stateWrite(state)]))
      shown = { on, brightness: on ? Math.round(state.brightness * 100) : (shown?.brightness ?? 0) };
  }

  async function strobeOn(step: Strobe): Promise<void> {
    const solid = solidLookOf(step);
    kit.looks.begin(CONTROLLER_KEY, solid);
    const info = controller.info();
    const panels = info?.panels ? ledPanels(info.panels) : [];
    if (panels.length === 0) {
      // No panel layout (Essentials): the flashes as paced `/state` writes.
      const first = kit.looks.pacedStrobe(CONTROLLER_KEY, step, NANOLEAF_PACED_HALF_PERIOD_MS, (look) => {
        void submit([stateWrite(look)]).catch(() => undefined);
      });
      await submit([stateWrite(first)]);
      shown = null;
      return;
    }
    const brightness = Math.round(step.brightness * 100);
    // The effect first (the flag shows at once), then the global brightness that scales it.
    const writes: NanoleafWrite[] = [{ path: '/effects', body: strobeEffect(panels, step) }];
    if (!shown?.on || shown.brightness !== brightness)
      writes.push({ path: '/state', body: { brightness: { value: brightness }, on: { value: true } } });
    kit.looks.guard(CONTROLLER_KEY, 'strobe', step.periodMs * step.cycles + options.strobeGuardMs, () => {
      if (controller.active() && controller.reachable()) void lookOn(solid).catch(() => undefined);
    });
    if (await submit(writes)) shown = { on: true, brightness };
  }

  return {
    put,
    lookOn,
    strobeOn,
    forgetShown: () => void (shown = null),
  };
}
