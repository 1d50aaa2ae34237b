import {
  COLOR_PRESETS,
  createLightProgram,
  EFFECT_FLAGS,
  hsbToRgb,
  type LightColor,
  type LightStep,
} from '@flaglight/core';
import {
  startWledSim,
  WLED_SIM_EFFECTS,
  WLED_SIM_EFFECTS_NO_FLASH,
  type WledSimDevice,
  type WledSimOptions,
} from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { pollUntil } from '../../../../../scripts/test-pace.mjs';
import type { DriverEvent, LightStateCommand } from '../../driver.js';
import { createWledDriver, type WledDriver, type WledDriverOptions } from './driver.js';
import { parseWledAddress } from './http.js';
import { wledSpeedFor } from './looks.js';
import { parseWledMdnsService } from './mdns.js';

// Every test drives simulated WLED devices over real HTTP on 127.0.0.1 (ephemeral ports).

const sims: WledSimDevice[] = [];
const drivers: WledDriver[] = [];
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.close()));
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function sim(options: WledSimOptions = {}) {
  const device = await startWledSim({ mac: `a0b76500000${sims.length + 1}`, ...options });
  sims.push(device);
  return device;
}

async function connected(devices: WledSimDevice[], options: Partial<WledDriverOptions> = {}) {
  const events: DriverEvent[] = [];
  const driver = createWledDriver({
    addresses: devices.map((d) => ({ host: d.host, port: d.port })),
    probeIntervalMs: 40,
    busyRetryMs: 60,
    timeoutMs: 1_000,
    ...options,
  });
  driver.subscribe((event) => events.push(event));
  drivers.push(driver);
  const listed = await driver.connect();
  return { driver, events, listed };
}

const steps = (flag: string) => {
  const result = createLightProgram(flag);
  if (!result.ok) throw new Error(result.warning);
  return result.program.steps.filter(
    (s): s is Exclude<LightStep, { kind: 'restore' }> => s.kind !== 'restore',
  );
};

const waitFor = (check: () => boolean, ms = 3_000) => pollUntil(check, ms, 10);

const rgb = (color: LightColor) => {
  const { r, g, b } = hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness: 1 });
  return [r, g, b];
};
const look = (color: LightColor, brightness = 1): LightStateCommand => ({
  on: true,
  color,
  brightness,
  transitionMs: 0,
});
const posts = (device: WledSimDevice) => device.requests().filter((r) => r.method === 'POST');

describe('WLED discovery by address', () => {
  test('each address is one light named by /json/info, its id the MAC, its effects found by name', async () => {
    const desk = await sim({ name: 'Desk strip', ledCount: 60 });
    const shelf = await sim({ name: 'Shelf', ledCount: 144, white: true, version: '0.14.4' });
    const { driver, listed } = await connected([desk, shelf]);
    expect(listed).toEqual([
      expect.objectContaining({ id: desk.id, label: 'Desk strip', connected: true, type: 'WLED, 60 LEDs' }),
      expect.objectContaining({ id: shelf.id, label: 'Shelf', connected: true, type: 'WLED, 144 LEDs' }),
    ]);
    expect(driver.devices()[1]).toMatchObject({
      info: { version: '0.14.4', ledCount: 144, white: true },
      effects: { solid: 0, flash: { id: 1, name: 'Blink' } },
    });
    expect(desk.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /json/info',
      'GET /json/effects',
    ]);
  });

  test('HOST, HOST:PORT and http:// addresses; https and junk refused', () => {
    expect(parseWledAddress('192.168.1.40')).toEqual({ host: '192.168.1.40', port: 80 });
    expect(parseWledAddress('http://wled-desk.local:8080/')).toEqual({ host: 'wled-desk.local', port: 8080 });
    expect(() => parseWledAddress('https://192.168.1.40')).toThrow(/plain HTTP/);
    expect(() => parseWledAddress('a b')).toThrow(/Not a WLED address/);
    expect(parseWledMdnsService({ addresses: ['fe80::1', '192.168.1.41'], port: 80, name: 'x' })).toEqual({
      host: '192.168.1.41',
      port: 80,
    });
  });
});

describe('WLED looks', () => {
  test.each(EFFECT_FLAGS.map((flag) => [flag]))(
    '%s: one POST per change, the flash effect looked up by name',
    async (flag) => {
      // A fork that lists its effects in another order: ids come from the names, never fixed numbers.
      const effects = ['Solid', 'Breathe', 'Wipe', 'Strobe', 'Fade', 'Blink', 'Chase'];
      const device = await sim({ effects, white: flag === 'checkered' });
      const { driver } = await connected([device]);
      for (const step of steps(flag)) {
        const before = posts(device).length;
        await driver.playStep([device.id], step);
        expect(posts(device).length - before).toBe(1);
        const seg = device.view().state.seg[0]!;
        const pad = (c: number[]) => (flag === 'checkered' ? [...c, 0] : c);
        expect(device.view().state.on).toBe(true);
        expect(device.view().state.bri).toBe(Math.round(step.brightness * 255));
        if (step.kind === 'strobe') {
          expect(device.view().effect).toBe('Blink');
          expect(seg.fx).toBe(5);
          expect(seg.sx).toBe(wledSpeedFor(step.periodMs));
          expect(seg.col.slice(0, 2)).toEqual([pad(rgb(step.color)), pad([0, 0, 0])]);
        } else {
          expect(device.view().effect).toBe('Solid');
          expect(seg.col[0]).toEqual(pad(rgb(step.color)));
          expect(posts(device).at(-1)!.body).toMatchObject({
            transition: Math.round(step.transitionMs / 100),
          });
        }
      }
    },
  );

  test('the strobe speeds: 0.1 s → sx 252, 0.2 s → sx 247 (reference §3.3)', () => {
    expect(wledSpeedFor(100)).toBe(252);
    expect(wledSpeedFor(200)).toBe(247);
  });

  test('a device without a flash effect flashes by paced writes with its Solid effect', async () => {
    const device = await sim({ effects: WLED_SIM_EFFECTS_NO_FLASH });
    const { driver } = await connected([device]);
    const [strobe] = steps('red');
    await driver.playStep([], strobe!);
    await waitFor(() => posts(device).length >= 4);
    expect(device.view().effect).toBe('Solid');
    // Red and dark in turn: the colour with the Solid effect, the dark half as on:false.
    const bodies = posts(device).map((r) => r.body as { on: boolean; seg?: { fx: number } });
    expect(bodies.slice(0, 2)).toEqual([
      expect.objectContaining({ on: true, seg: expect.objectContaining({ fx: 0 }) }),
      expect.objectContaining({ on: false }),
    ]);
  });

  test('off is on:false; the full effect list of 0.15 finds Blink at 1', async () => {
    const device = await sim({ effects: WLED_SIM_EFFECTS });
    const { driver } = await connected([device]);
    await driver.setState([], { ...look(COLOR_PRESETS.black), on: false });
    expect(device.view().state.on).toBe(false);
    expect(driver.devices()[0]!.effects).toEqual({ solid: 0, flash: { id: 1, name: 'Blink' } });
  });
});

describe('WLED pacing and failures', () => {
  test('a slow device: one request in flight, and of the looks sent meanwhile only the newest', async () => {
    const device = await sim();
    const { driver } = await connected([device]);
    device.setFault({ delayMs: 150 });
    const colors = [COLOR_PRESETS.red, COLOR_PRESETS.yellow, COLOR_PRESETS.green, COLOR_PRESETS.blue];
    const sends = colors.map((c) => driver.setState([], look(c)));
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, driver.inFlight())), 5);
    await Promise.all(sends);
    clearInterval(watch);
    expect(most).toBe(1);
    expect(device.view().requests.maxConcurrent).toBe(1);
    // The first went at once, yellow and green were replaced while it was in flight.
    expect(posts(device)).toHaveLength(2);
    expect(device.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.blue));
  });

  test('a device that goes away is reported, probed, and given its last look when it answers', async () => {
    const device = await sim();
    const { driver, events } = await connected([device]);
    await driver.setState([], look(COLOR_PRESETS.red));
    device.setFault({ offline: true });
    await expect(driver.setState([], look(COLOR_PRESETS.green, 0.5))).rejects.toMatchObject({
      kind: 'network',
    });
    expect(events).toContainEqual({
      type: 'error',
      error: { kind: 'network', message: expect.stringMatching(/is not answering/) },
    });
    expect((await driver.listDevices())[0]!.connected).toBe(false);
    await new Promise((r) => setTimeout(r, 150));
    device.setFault({ offline: false });
    await waitFor(() => device.view().hex === '#008000');
    expect((await driver.listDevices())[0]!.connected).toBe(true);
    const gets = device.requests().filter((r) => r.path === '/json/info');
    expect(gets.length).toBeGreaterThanOrEqual(2);
  });

  test('a 503 is reported, not fatal: the other device keeps going and the busy one gets its look after', async () => {
    const busy = await sim({ name: 'Busy' });
    const fine = await sim({ name: 'Fine' });
    const { driver, events } = await connected([busy, fine]);
    busy.setFault({ failNext: 1 });
    await expect(driver.setState([], look(COLOR_PRESETS.blue))).rejects.toMatchObject({
      kind: 'server',
      status: 503,
      message: expect.stringMatching(/"Busy" refused the look \(HTTP 503: busy\)/),
    });
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(fine.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.blue));
    // Tried once more after the pause, with no newer look in between.
    await waitFor(() => busy.view().state.seg[0]!.col[0]!.join() === rgb(COLOR_PRESETS.blue).join());
    busy.setFault({ busy: true });
    await expect(driver.setState([], look(COLOR_PRESETS.red))).rejects.toMatchObject({ status: 503 });
    expect(fine.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.red));
    busy.setFault({ busy: false });
    await driver.setState([], look(COLOR_PRESETS.green));
    expect(busy.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.green));
    expect((await driver.listDevices()).every((d) => d.connected)).toBe(true);
  });

  test('an endless /json/info answer is refused ("answer too large") and reported; the others are used', async () => {
    const endless = await sim({ name: 'Endless' });
    const fine = await sim({ name: 'Fine' });
    endless.setFault({ endless: true });
    const started = Date.now();
    const { driver, events, listed } = await connected([endless, fine]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(events).toContainEqual({
      type: 'error',
      error: { kind: 'server', message: expect.stringMatching(/answer too large/) },
    });
    expect(listed.map((d) => d.connected)).toEqual([false, true]);
    await driver.setState([], look(COLOR_PRESETS.yellow));
    expect(fine.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.yellow));
    expect(posts(endless)).toHaveLength(0);
  });

  test('a device found at a new address (DHCP) keeps its id and gets its last look there', async () => {
    const before = await sim({ mac: 'a0b765000042', name: 'Moving' });
    const { driver } = await connected([before]);
    await driver.setState([], look(COLOR_PRESETS.red));
    await before.close();
    await expect(driver.setState([], look(COLOR_PRESETS.blue))).rejects.toMatchObject({ kind: 'network' });
    const after = await sim({ mac: 'a0b765000042', name: 'Moving' });
    const listed = await driver.addAddresses([{ host: after.host, port: after.port }]);
    expect(listed.map((d) => d.id)).toEqual(['a0b765000042']);
    await waitFor(() => after.view().state.seg[0]!.col[0]!.join() === rgb(COLOR_PRESETS.blue).join());
    expect(driver.devices()[0]!.address.port).toBe(after.port);
  });

  test("while B is down, A answering with B's MAC takes B only while B is silent: B is back at its own address when it answers, A at its own when it does", async () => {
    const a = await sim({ name: 'A' });
    const b = await sim({ name: 'B' });
    const { driver, events } = await connected([a, b], { healthIntervalMs: 50 });
    const at = () => driver.devices().map((d) => [d.id, d.address.port, d.reachable]);
    await driver.setState([], look(COLOR_PRESETS.red));
    b.setFault({ offline: true });
    await expect(driver.setState([b.id], look(COLOR_PRESETS.red))).rejects.toMatchObject({ kind: 'network' });
    a.setFault({ mac: b.id });
    // B's own address is asked again and is silent: B is trusted at A's address, A is not driven.
    await waitFor(() => at()[1]![1] === a.port);
    expect(at()).toEqual([
      [a.id, a.port, false],
      [b.id, a.port, true],
    ]);
    expect(events).toContainEqual({
      type: 'error',
      error: {
        kind: 'not-found',
        message: `WLED "A" is not at 127.0.0.1:${a.port}: another device (${b.id}) answers there`,
      },
    });

    // B answers at its own address again (A still claims to be B): B goes back there.
    b.setFault({ offline: false });
    await waitFor(() => at()[1]![1] === b.port);
    const toA = posts(a).length;
    await driver.setState([], look(COLOR_PRESETS.blue));
    expect(b.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.blue));
    expect(posts(a)).toHaveLength(toA);

    // A answers as itself again: each device at its own address, both driven.
    a.setFault({ mac: null });
    await waitFor(() => at()[0]![2] === true);
    await driver.setState([], look(COLOR_PRESETS.yellow));
    expect(at()).toEqual([
      [a.id, a.port, true],
      [b.id, b.port, true],
    ]);
    for (const device of [a, b])
      expect(device.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.yellow));
  });

  test("an address answering with another device's MAC while that device answers at its own is not driven as either, and is driven again as itself", async () => {
    const a = await sim({ name: 'A' });
    const b = await sim({ name: 'B' });
    const { driver } = await connected([a, b], { healthIntervalMs: 50 });
    a.setFault({ mac: b.id });
    await waitFor(() => driver.devices().find((d) => d.id === a.id)?.reachable === false);
    const toA = posts(a).length;
    await driver.setState([], look(COLOR_PRESETS.green));
    await driver.setState([b.id], look(COLOR_PRESETS.blue));
    expect(posts(a)).toHaveLength(toA);
    expect(b.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.blue));
    expect(driver.devices().map((d) => [d.id, d.address.port])).toEqual([
      [a.id, a.port],
      [b.id, b.port],
    ]);
    // A names itself again: it is found at its address and gets the look it missed.
    a.setFault({ mac: null });
    await waitFor(() => a.view().state.seg[0]!.col[0]!.join() === rgb(COLOR_PRESETS.green).join());
    expect(driver.devices().every((d) => d.reachable)).toBe(true);
  });

  test('a strobe left running (no newer look) is set solid after its length and the guard', async () => {
    const device = await sim();
    const { driver } = await connected([device], { strobeGuardMs: 50 });
    const [strobe] = steps('yellow');
    await driver.playStep([], strobe!);
    expect(device.view().effect).toBe('Blink');
    await waitFor(() => device.view().effect === 'Solid');
    expect(device.view().state.seg[0]!.col[0]).toEqual(rgb(COLOR_PRESETS.yellow));
  });
});
