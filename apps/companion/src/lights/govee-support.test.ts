import { GOVEE_LAN_CONTROL_ADVICE } from '@flaglight/lights/lan';
import { startVirtualGoveeDevices, type VirtualGoveeDevices } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { createLogger } from '../system/log.js';
import { createGoveeSupport } from './govee-support.js';
import { createLightsHub, drivenIds, type LightsHub } from './lights-hub.js';

let sim: VirtualGoveeDevices | null = null;
let hub: LightsHub | null = null;
afterEach(async () => {
  await hub?.close();
  await sim?.close();
  hub = null;
  sim = null;
});

const until = async (condition: () => boolean, timeoutMs = 3000) => {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

async function start(lanControl: boolean) {
  sim = await startVirtualGoveeDevices({ count: 3, omitIp: [2] });
  sim.setLanControl(undefined, lanControl);
  const log = createLogger({ console: false });
  hub = createLightsHub({ log });
  const govee = createGoveeSupport({ hub, log, multicast: false });
  // As --demo configures it from /sims/lan/state.
  await govee.start([{ host: sim.host, port: sim.scanPort }], {
    scan: sim.scanPort,
    listen: sim.replyPort,
    command: 'source',
  });
  return { sim, hub, govee, log };
}

describe('Govee LAN in the companion', () => {
  test("the simulator's devices join the hub as govee_lan lights and play a flag", async () => {
    const { sim, hub, govee } = await start(true);
    const lights = hub.lights();
    expect(lights.map((l) => [l.provider, l.id]).sort()).toEqual(
      sim
        .list()
        .map((d) => ['govee_lan', d.id])
        .sort(),
    );
    expect(govee.view()).toEqual({ active: true, devices: 3, advice: null, error: null });
    hub.play('vsc');
    await until(() => sim.list().every((d) => d.hex === '#ff8000'));
  });

  test('LAN Control off: the status shows the advice to switch it on in the Govee Home app', async () => {
    const { govee, log } = await start(false);
    expect(govee.view()).toMatchObject({ active: true, devices: 0, advice: GOVEE_LAN_CONTROL_ADVICE });
    expect(log.recent().some((e) => e.level === 'warn' && e.message.includes('"LAN Control"'))).toBe(true);
  });

  test('a cloud Govee light selected in the browser is left to it when the account says so', () => {
    const found = [{ id: 'AA:BB:CC:DD:EE:FF:00:01', reachable: true }];
    const selectedLights = { govee: ['AA:BB:CC:DD:EE:FF:00:01'] };
    expect(drivenIds('govee_lan', found, { selectedLights, sharedLightsDriver: 'browser' })).toEqual([]);
    expect(drivenIds('govee_lan', found, { selectedLights, sharedLightsDriver: 'companion' })).toHaveLength(
      1,
    );
  });
});
