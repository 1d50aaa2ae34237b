import { createSocket } from 'node:dgram';
import { startVirtualGoveeDevices } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { pollFor } from '../../../../../scripts/test-pace.mjs';
import type { LightStateCommand } from '../../driver.js';
import { createGoveeLanDriver } from './driver.js';

// "As it was" for a Govee device in white, over real UDP on 127.0.0.1 against the LAN simulator:
// `devStatus` reads its kelvin, a flag makes it red, and `colorwc` with the kelvin makes it white again.

const LOOPBACK = '127.0.0.1';
const RED: LightStateCommand = {
  on: true,
  color: { name: 'red', hue: 0, saturation: 1 },
  brightness: 1,
  transitionMs: 0,
};

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const until = <T>(check: () => T, what: string, ms = 2_500) => pollFor(check, what, ms);

/** What another app on the LAN would send: `colorwc` with a kelvin, so the device shows that white. */
async function setWhite(commandPort: number, kelvin: number, brightness: number): Promise<void> {
  const socket = createSocket('udp4');
  const send = (cmd: string, data: unknown) =>
    new Promise<void>((resolve, reject) =>
      socket.send(JSON.stringify({ msg: { cmd, data } }), commandPort, LOOPBACK, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  await send('brightness', { value: brightness });
  await send('colorwc', { color: { r: 255, g: 255, b: 255 }, colorTemInKelvin: kelvin });
  socket.close();
}

describe('Govee LAN: a device in white is given back in white', () => {
  test('white 2700 K is read, driven red, and given back at 2700 K in white', async () => {
    const sim = await startVirtualGoveeDevices({ count: 2 });
    cleanup.push(() => sim.close());
    const device = sim.list()[0]!;
    await setWhite(device.commandPort, 2700, 45);
    await until(() => sim.get(device.id)?.kelvin === 2700, 'the white set by another app');

    const driver = createGoveeLanDriver({
      targets: [{ host: sim.host, port: sim.scanPort }],
      ports: { listen: sim.replyPort },
      commandPortFromReply: true,
      bindAddress: LOOPBACK,
      scanWindowMs: 100,
      rescanIntervalMs: 0,
      repeatAfterMs: 60,
      statusTimeoutMs: 200,
      minGapMs: 5,
    });
    cleanup.push(() => driver.close());
    expect((await driver.discover()).map((d) => d.id)).toContain(device.id);

    const saved = await driver.readStates([device.id]);
    expect(saved[device.id]).toMatchObject({
      readable: true,
      on: true,
      state: { onOff: 1, brightness: 45, colorTemInKelvin: 2700 },
    });

    await driver.setState([device.id], RED);
    await until(() => sim.get(device.id)?.hex === '#ff0000', 'the red look');
    expect(sim.get(device.id)).toMatchObject({ kelvin: 0, color: { r: 255, g: 0, b: 0 } });

    const report = await driver.restoreStates(saved);
    expect(report).toEqual({ restored: [device.id], left: [] });
    await until(() => sim.get(device.id)?.kelvin === 2700, 'the white given back');
    expect(sim.get(device.id)).toMatchObject({ on: true, brightness: 45, kelvin: 2700 });
    // The last colour command is the white, at its kelvin.
    const colours = sim.log(device.id).filter((r) => r.cmd === 'colorwc' && r.ignored === null);
    expect(colours.at(-1)?.data).toMatchObject({ colorTemInKelvin: 2700 });
  });
});
