import {
  HOME_ASSISTANT_DEMO_LIGHTS,
  HOME_ASSISTANT_DEMO_TOKEN,
  startHomeAssistantSim,
} from '@flaglight/sims';
import { createHomeAssistantDriver } from '../src/lan/home-assistant/driver.js';
import { lookFromHex, type DriverHarness } from './driver-contract.js';

/** The demo's colour lights: a white-only or dimmer-only light cannot show SPEC's colours at all. */
const COLOUR_LIGHTS = HOME_ASSISTANT_DEMO_LIGHTS.filter((l) =>
  l.modes.some((m) => m === 'hs' || m === 'xy' || m === 'rgb' || m === 'rgbw'),
);

/**
 * Home Assistant (`home_assistant`): one `light.turn_on`/`turn_off` call per entity per look; a
 * strobe is one call with `flash: short` on an entity that flashes, else the driver's own looks at
 * 400 ms halves (the per-entity pace), so chequered (3 s) is up to 8 looks and the solid one; a 5xx
 * is tried once more. Bound 12. The xy light goes through
 * CIE xy and back, which moves hues as Hue's gamut does.
 */
export const homeAssistantHarness: DriverHarness = {
  name: 'home_assistant',
  tolerance: { hueDeg: 16, brightness: 0.02 },
  maxCommandsPerLightPerFlag: 12,
  async start(timers) {
    const sim = await startHomeAssistantSim({ now: timers.now, lights: COLOUR_LIGHTS });
    const driver = createHomeAssistantDriver({
      url: sim.url,
      token: HOME_ASSISTANT_DEMO_TOKEN,
      timers,
      refreshMs: 0,
    });
    const ids = (await driver.connect()).map((d) => d.id);
    return {
      driver,
      ids,
      observe(id) {
        const light = sim.light(id)!;
        return lookFromHex(light.hex, light.state === 'on');
      },
      commands: (id) => sim.light(id)?.calls ?? 0,
      faultOnce() {
        const before = sim.requests().length;
        sim.failNextServiceCalls(500, 1);
        return {
          fired: () =>
            sim
              .requests()
              .slice(before)
              .some((r) => r.status === 500),
        };
      },
      clearFaults: () => sim.failNextServiceCalls(500, 0),
      async close() {
        await driver.close();
        await sim.close();
      },
    };
  },
};
