import { createSocket } from 'node:dgram';
import { COLOR_PRESETS, FASTEST_LAP_PURPLE, type EffectFlag } from '@flaglight/core';
import { startVirtualGoveeDevices, type GoveeReceived, type VirtualGoveeDevices } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../../scripts/test-pace.mjs';
import { until } from '../../../test/fake-timers.js';
import type { DriverEvent } from '../../driver.js';
import { createEffectPlayer } from '../../player/player.js';
import {
  createGoveeLanDriver,
  GOVEE_LAN_CONTROL_ADVICE,
  GOVEE_LAN_MIN_STROBE_HALF_PERIOD_MS,
  type GoveeLanDriver,
  type GoveeLanDriverOptions,
} from './driver.js';

const LOOPBACK = '127.0.0.1';
let sims: VirtualGoveeDevices[] = [];
let drivers: GoveeLanDriver[] = [];

afterEach(async () => {
  await Promise.all(drivers.map((d) => d.close()));
  await Promise.all(sims.map((s) => s.close()));
  drivers = [];
  sims = [];
});

async function setup(
  options: { count?: number; omitIp?: number[]; random?: () => number } & Partial<GoveeLanDriverOptions> = {},
) {
  const { count = 3, omitIp, random, ...driverOptions } = options;
  const sim = await startVirtualGoveeDevices({
    count,
    ...(omitIp ? { omitIp } : {}),
    ...(random ? { random } : {}),
  });
  sims.push(sim);
  const events: DriverEvent[] = [];
  const logs: string[] = [];
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
    onLog: (m) => logs.push(m),
    ...driverOptions,
  });
  drivers.push(driver);
  driver.subscribe((e) => events.push(e));
  return { sim, driver, events, logs };
}

/** Commands a device applied (lost, ignored and invalid ones left out), status reads aside. */
const applied = (log: GoveeReceived[]) =>
  log.filter((r) => r.ignored === null && r.via === 'command' && r.cmd !== 'devStatus');
const red = { on: true, color: COLOR_PRESETS.red, brightness: 1, transitionMs: 0 };

describe('Govee LAN scan', () => {
  test('a unicast scan finds every device, one of them without ip in its reply', async () => {
    const { sim, driver } = await setup({ count: 3, omitIp: [1] });
    const found = await driver.discover();
    expect(found.map((d) => d.id).sort()).toEqual(
      sim
        .list()
        .map((d) => d.id)
        .sort(),
    );
    expect(found.every((d) => d.connected && d.type === 'govee_lan')).toBe(true);
    const bulb = sim.list()[1]!;
    expect(bulb.omitsIp).toBe(true);
    const seen = driver.devices().find((d) => d.id === bulb.id)!;
    // No ip: the source address; on loopback the command port is the reply's source port.
    expect(seen).toMatchObject({ address: LOOPBACK, port: bulb.commandPort, sku: 'H6008', reachable: true });
    expect(seen.label).toBe(`Govee H6008 ·${bulb.id.replace(/:/g, '').slice(-4)}`);
    // The scan is literally Govee's, sent to the scan port only.
    const scan = sim.log(bulb.id).find((r) => r.via === 'scan')!;
    expect(scan).toMatchObject({ cmd: 'scan', data: { account_topic: 'reserve' } });
    await driver.setState([bulb.id], red);
    expect(sim.get(bulb.id)).toMatchObject({ on: true, brightness: 100, color: { r: 255, g: 0, b: 0 } });
  });

  test('LAN Control off: the scan finds nothing and the warning says to switch it on', async () => {
    const { sim, driver, events } = await setup({ count: 2 });
    sim.setLanControl(undefined, false);
    expect(await driver.discover()).toEqual([]);
    expect(driver.scanFoundNothing()).toBe(true);
    expect(events).toContainEqual({ type: 'warning', message: GOVEE_LAN_CONTROL_ADVICE });
    expect(GOVEE_LAN_CONTROL_ADVICE).toMatch(/"LAN Control" in the Govee Home app for each device/);
    expect(sim.log(sim.list()[0]!.id).every((r) => r.ignored === 'lan-control-off')).toBe(true);
    sim.setLanControl(undefined, true);
    expect(await driver.discover()).toHaveLength(2);
    expect(driver.scanFoundNothing()).toBe(false);
  });

  test('a device missing 3 scans is reported, and a rescan finds it again after a reboot on a new port', async () => {
    // Removal after missed scans has its own test (untrusted-replies.test.ts): not while it reboots here.
    const { sim, driver, events } = await setup({ count: 2, rescanIntervalMs: 50, expireAfterScans: 1_000 });
    await driver.discover();
    const [moving, steady] = sim.list();
    await driver.setState([], red);
    sim.setLanControl(moving!.id, false);
    await until(() => driver.devices().find((d) => d.id === moving!.id)?.reachable === false, 3000);
    expect(events).toContainEqual({
      type: 'error',
      error: {
        kind: 'timeout',
        message: expect.stringMatching(/is not answering on the LAN \(missed 3 scans\)/),
      },
    });
    expect((await driver.listDevices()).find((d) => d.id === moving!.id)?.connected).toBe(false);
    // Changes meanwhile: the steady one takes them, the lost one keeps the newest as its look.
    const blue = { ...red, color: COLOR_PRESETS.blue };
    await driver.setState([], blue);
    expect(sim.get(steady!.id)?.color).toEqual({ r: 0, g: 0, b: 255 });
    const rebooted = await sim.reboot(moving!.id);
    expect(rebooted.commandPort).not.toBe(moving!.commandPort);
    sim.setLanControl(moving!.id, true);
    await until(() => {
      const seen = driver.devices().find((d) => d.id === moving!.id);
      return seen?.reachable === true && seen.port === rebooted.commandPort;
    }, 3000);
    await until(() => sim.get(moving!.id)?.color.b === 255, 3000);
  });

  test('bad options and bad looks are refused with clear messages; the listen port in use is explained', async () => {
    expect(() => createGoveeLanDriver({})).toThrow(/scan targets or allow the multicast scan/);
    expect(() => createGoveeLanDriver({ targets: [{ host: LOOPBACK, port: 70_000 }] })).toThrow(
      /port number/,
    );
    expect(() =>
      createGoveeLanDriver({ targets: [{ host: LOOPBACK, port: 4001 }], ports: { command: 0 } }),
    ).toThrow(/the command port must be a port number/);
    const { driver } = await setup({ count: 1 });
    await driver.discover();
    await expect(driver.setState([], { ...red, brightness: 2 })).rejects.toMatchObject({
      kind: 'bad-request',
      message: expect.stringMatching(/brightness must be between 0 and 1/),
    });
    // A port held without reuseAddr (another Govee app): bind fails and says why.
    const holder = createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(0, LOOPBACK, resolve));
    const events: DriverEvent[] = [];
    const blocked = createGoveeLanDriver({
      targets: [{ host: LOOPBACK, port: 9 }],
      ports: { listen: holder.address().port },
      bindAddress: LOOPBACK,
    });
    drivers.push(blocked);
    blocked.subscribe((e) => events.push(e));
    await expect(blocked.discover()).rejects.toThrow(/another Govee app on this computer/);
    expect(events[0]).toMatchObject({ type: 'error', error: { kind: 'network' } });
    holder.close();
  });
});

describe('Govee LAN looks', () => {
  test('on: turn, brightness, colorwc, the last again, then devStatus confirms; off is turn 0 alone', async () => {
    const { sim, driver } = await setup({ count: 1 });
    await driver.discover();
    const [device] = sim.list();
    await driver.setState([], { ...red, color: COLOR_PRESETS.orange, brightness: 0.5 });
    const sent = sim.log(device!.id).filter((r) => r.via === 'command');
    expect(sent.map((r) => r.cmd)).toEqual(['turn', 'brightness', 'colorwc', 'colorwc', 'devStatus']);
    expect(sent.map((r) => r.data)).toEqual([
      { value: 1 },
      { value: 50 },
      { color: { r: 255, g: 128, b: 0 }, colorTemInKelvin: 0 },
      { color: { r: 255, g: 128, b: 0 }, colorTemInKelvin: 0 },
      {},
    ]);
    expect(driver.devices()[0]).toMatchObject({ confirmed: true, lastColor: '#804000' });
    const before = sim.log(device!.id).length;
    await driver.setState([], { ...red, color: COLOR_PRESETS.black });
    expect(
      sim
        .log(device!.id)
        .slice(before)
        .map((r) => `${r.cmd}:${JSON.stringify(r.data)}`),
    ).toEqual(['turn:{"value":0}', 'turn:{"value":0}', 'devStatus:{}']);
    expect(sim.get(device!.id)).toMatchObject({ on: false, hex: '#000000' });
  });

  // Every flag's look through the effect player, as the companion plays it.
  const LOOKS: [EffectFlag, string, number][] = [
    ['green', '#008000', 5_000],
    ['yellow', '#808000', 1_500],
    ['red', '#800000', 1_500],
    ['checkered', '#ffffff', 3_500],
    ['vsc', '#804000', 5_000],
    ['vsc_ending', '#804000', 5_000],
  ];
  test.each(LOOKS)(
    '%s: the player settles the device on %s',
    { timeout: paced(15_000) },
    async (flag, settled, settlesAtMs) => {
      const { sim, driver } = await setup({ count: 2 });
      await driver.discover();
      const ids = driver.devices().map((d) => d.id);
      // From a look no flag settles on (the devices start in warm white, kelvin 3000).
      await driver.setState([], { ...red, color: COLOR_PRESETS.blue, brightness: 0.2 });
      const before = sim.log(ids[0]!).length;
      const player = createEffectPlayer({ driver, devices: () => ids });
      const started = Date.now();
      player.play(flag);
      if (flag === 'checkered') {
        // It flashes white too: look once the flashing is over.
        await until(() => Date.now() - started >= settlesAtMs + 400, settlesAtMs + 3000);
        expect(sim.list().map((d) => d.hex)).toEqual([settled, settled]);
      } else {
        await until(() => sim.list().every((d) => d.hex === settled), settlesAtMs + 3000);
        expect(Date.now() - started).toBeGreaterThanOrEqual(settlesAtMs - 100);
      }
      player.dispose();
      const first = applied(sim.log(ids[0]!).slice(before));
      if (flag === 'yellow' || flag === 'red' || flag === 'checkered') {
        // Flashes: turn 0 between the full-brightness looks, no change faster than 200 ms.
        const offs = first.filter((r) => r.cmd === 'turn' && (r.data as { value: number }).value === 0);
        expect(offs.length).toBeGreaterThanOrEqual(flag === 'checkered' ? 7 : 2);
        const onTimes = first
          .filter((r) => r.cmd === 'turn' && (r.data as { value: number }).value === 1)
          .map((r) => r.monotonicMs);
        const gaps = onTimes.slice(1).map((t, i) => t - onTimes[i]!);
        expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2 * GOVEE_LAN_MIN_STROBE_HALF_PERIOD_MS - 150);
      } else {
        // A solid flag: the 100% look, then the 50% one; never off.
        expect(first.some((r) => r.cmd === 'turn' && (r.data as { value: number }).value === 0)).toBe(false);
        expect(
          first.filter((r) => r.cmd === 'brightness').map((r) => (r.data as { value: number }).value),
        ).toEqual([100, 50]);
      }
    },
  );

  test('fastest lap: purple, then back to the lasting flag', { timeout: paced(10_000) }, async () => {
    const { sim, driver } = await setup({ count: 1 });
    await driver.discover();
    const ids = driver.devices().map((d) => d.id);
    const player = createEffectPlayer({ driver, devices: () => ids });
    player.play('vsc');
    await until(() => sim.list()[0]!.hex === '#ff8000', 2000);
    player.play('fastest_lap');
    await until(() => sim.list()[0]!.color.b === 255, 2000);
    expect(sim.list()[0]!.color).toEqual({ r: 170, g: 0, b: 255 });
    expect(FASTEST_LAP_PURPLE.hue).toBe(280);
    await until(() => sim.list()[0]!.hex === '#804000', 6000);
    player.dispose();
  });

  test('the newest look wins: a burst of changes ends on the last, queued ones dropped', async () => {
    const { sim, driver } = await setup({ count: 1, minGapMs: 40 });
    await driver.discover();
    const [device] = sim.list();
    const burst = Array.from({ length: 10 }, (_, i) =>
      driver.setState([], { ...red, color: { name: 'h', hue: i * 30, saturation: 1 } }),
    );
    await Promise.all(burst);
    await until(() => driver.devices()[0]!.confirmed, 2000);
    expect(sim.get(device!.id)?.color).toEqual({ r: 128, g: 0, b: 255 });
    // Ten looks of three commands each would be 30; only what was on the wire when replaced went.
    expect(applied(sim.log(device!.id)).length).toBeLessThan(10);
    driver.cancelPending();
    expect(driver.devices()[0]!.confirmed).toBe(true);
  });
});

describe('Govee LAN reliability', () => {
  test('under 40% loss, duplicates and reorder every look is confirmed by status and resent on mismatch', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const { sim, driver, events, logs } = await setup({ count: 3, random, attempts: 8 });
    await driver.discover();
    await driver.discover();
    expect(driver.devices()).toHaveLength(3);
    sim.setFault(undefined, { lossPercent: 40, duplicates: true, jitterMs: 30 });
    const looks = [COLOR_PRESETS.green, COLOR_PRESETS.yellow, COLOR_PRESETS.blue];
    for (const color of looks) await driver.setState([], { ...red, color });
    for (const device of sim.list()) expect(device.color).toEqual({ r: 0, g: 0, b: 255 });
    expect(driver.devices().every((d) => d.confirmed)).toBe(true);
    expect(logs.some((l) => /sending again/.test(l))).toBe(true);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
  });

  test('a device that ignores commands but answers status is reported after its tries', async () => {
    const { sim, driver, events } = await setup({ count: 2, attempts: 2 });
    await driver.discover();
    const [stubborn, fine] = sim.list();
    sim.setFault(stubborn!.id, { ignoreCommands: true });
    await expect(driver.setState([stubborn!.id], red)).rejects.toMatchObject({
      kind: 'server',
      message: expect.stringMatching(
        /answers but does not apply commands \(it still shows white 3000 K at 100%\)/,
      ),
    });
    expect(events).toContainEqual({
      type: 'error',
      error: { kind: 'server', message: expect.stringContaining('does not apply commands') },
    });
    // It got the look twice (two tries) and answered both status reads.
    expect(sim.log(stubborn!.id).filter((r) => r.cmd === 'devStatus')).toHaveLength(2);
    expect(sim.log(stubborn!.id).filter((r) => r.ignored === 'ignores-commands')).toHaveLength(8);
    expect(driver.devices().find((d) => d.id === stubborn!.id)?.reachable).toBe(true);
    await driver.setState([fine!.id], red);
    expect(sim.get(fine!.id)?.hex).toBe('#ff0000');
  });

  test('no status answer: the look is sent again, then the device is reported as not answering', async () => {
    const { sim, driver, events } = await setup({ count: 1, attempts: 2 });
    await driver.discover();
    const [device] = sim.list();
    sim.setFault(device!.id, { lossPercent: 100 });
    await expect(driver.setState([], red)).rejects.toMatchObject({ kind: 'timeout' });
    expect(sim.log(device!.id).filter((r) => r.cmd === 'devStatus')).toHaveLength(2);
    expect(events.some((e) => e.type === 'error' && e.error.kind === 'timeout')).toBe(true);
  });
});
