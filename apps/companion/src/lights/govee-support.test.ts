import { createSocket } from 'node:dgram';
import { createGoveeLanDriver, GOVEE_LAN_CONTROL_ADVICE } from '@flaglight/lights/lan';
import { startVirtualGoveeDevices, type VirtualGoveeDevices } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { pollUntil } from '../../../../scripts/test-pace.mjs';
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

const until = (condition: () => boolean, timeoutMs = 3000) => pollUntil(condition, timeoutMs);

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

  test('forged scan replies from another address never become lights, in demo wiring', async () => {
    // Another machine (127.0.0.2) floods the listen port for the whole scan: the targets are
    // 127.0.0.1 only, so none of its 40 devices may join.
    const forger = createSocket('udp4');
    await new Promise<void>((resolve) => forger.bind(0, '127.0.0.2', resolve));
    const replyPort = await new Promise<number>((resolve) => {
      const probe = createSocket('udp4');
      probe.bind(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
    let i = 0;
    // Eight replies a tick: on a loaded machine the interval fires far less often than every 5 ms.
    const flood = setInterval(() => {
      for (let burst = 0; burst < 8; burst += 1) {
        const device = `EE:EE:00:00:00:00:00:${(i++ % 40).toString(16).padStart(2, '0')}`;
        const data = { ip: '127.0.0.2', device, sku: 'H6159' };
        forger.send(JSON.stringify({ msg: { cmd: 'scan', data } }), replyPort, '127.0.0.1');
      }
    }, 5);
    try {
      sim = await startVirtualGoveeDevices({ count: 3, replyPort });
      const log = createLogger({ console: false });
      hub = createLightsHub({ log });
      const govee = createGoveeSupport({ hub, log, multicast: false });
      await govee.start([{ host: sim.host, port: sim.scanPort }], {
        scan: sim.scanPort,
        listen: replyPort,
        command: 'source',
      });
      expect(i).toBeGreaterThan(40);
      const ids = sim.list().map((d) => d.id);
      expect(
        hub
          .lights()
          .map((l) => l.id)
          .sort(),
      ).toEqual(ids.sort());
      expect(govee.view().devices).toBe(3);
    } finally {
      clearInterval(flood);
      await new Promise<void>((resolve) => forger.close(() => resolve()));
    }
  });

  test('a Govee device that stops answering leaves the status list, and returns when it answers', async () => {
    sim = await startVirtualGoveeDevices({ count: 2 });
    const log = createLogger({ console: false });
    hub = createLightsHub({ log });
    const driver = createGoveeLanDriver({
      targets: [{ host: sim.host, port: sim.scanPort }],
      ports: { listen: sim.replyPort },
      commandPortFromReply: true,
      bindAddress: '127.0.0.1',
      scanWindowMs: 60,
      rescanIntervalMs: 20,
      missedScans: 2,
      expireAfterScans: 4,
    });
    await hub.add('govee_lan', 'govee', driver);
    const [leaving, staying] = sim.list();
    expect(hub.lights()).toHaveLength(2);
    sim.setLanControl(leaving!.id, false);
    await until(() => hub!.lights().length === 1);
    expect(hub.lights().map((l) => l.id)).toEqual([staying!.id]);
    expect(log.recent().some((e) => e.message.includes('removed from the list'))).toBe(true);
    sim.setLanControl(leaving!.id, true);
    // The hub reads the list every 2 s.
    await until(() => hub!.lights().some((l) => l.id === leaving!.id && l.reachable), 5000);
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
