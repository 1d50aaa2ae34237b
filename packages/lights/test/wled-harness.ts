import { startWledSim } from '@flaglight/sims';
import { createWledDriver } from '../src/lan/wled/driver.js';
import { lookFromHex, type DriverHarness } from './driver-contract.js';

/**
 * WLED (`wled`): two devices, one driver; a look is one `POST /json/state`, a strobe one write of
 * the Blink effect (found by name), ended by the next look. Observed as the first LED's colour now
 * (Blink plays on the contract's clock). Bound 4: a caution flag is an effect and a solid look; a
 * 503 is sent once more.
 */
export const wledHarness: DriverHarness = {
  name: 'wled',
  // 8-bit RGB scaled by `bri` 0–255.
  tolerance: { hueDeg: 2, brightness: 0.01 },
  maxCommandsPerLightPerFlag: 4,
  async start(timers) {
    const devices = [
      await startWledSim({ now: timers.now, name: 'Contract strip', mac: 'a0b765c00001' }),
      await startWledSim({ now: timers.now, name: 'Contract RGBW', mac: 'a0b765c00002', white: true }),
    ];
    const driver = createWledDriver({
      addresses: devices.map((d) => ({ host: d.host, port: d.port })),
      timers,
    });
    const ids = (await driver.connect()).map((d) => d.id);
    const device = (id: string) => devices.find((d) => d.id === id)!;
    return {
      driver,
      ids,
      observe(id) {
        const view = device(id).view();
        return lookFromHex(view.hex, view.state.on);
      },
      commands: (id) => device(id).view().requests.writes,
      faultOnce() {
        const target = devices[0]!;
        target.setFault({ failNext: 1 });
        return { fired: () => target.view().fault.failNext === 0 };
      },
      clearFaults: () => devices.forEach((d) => d.setFault({ failNext: 0, busy: false })),
      async close() {
        await driver.close();
        await Promise.all(devices.map((d) => d.close()));
      },
    };
  },
};
