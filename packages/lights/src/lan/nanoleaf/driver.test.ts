import { COLOR_PRESETS, createLightProgram, FASTEST_LAP_PURPLE, type LightStep } from '@flaglight/core';
import { startNanoleafSim, type NanoleafSimDevice } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced, pollUntil } from '../../../../../scripts/test-pace.mjs';
import type { DriverEvent } from '../../driver.js';
import { LightError } from '../../errors.js';
import { createEffectPlayer } from '../../player/player.js';
import { createNanoleafDriver, NANOLEAF_SERIAL_CHANGED, type NanoleafDriver } from './driver.js';
import { parseNanoleafAddress } from './http.js';
import { fetchNanoleafInfo, NANOLEAF_PAIRING_TIMED_OUT, pairNanoleaf } from './pairing.js';

// Every test drives a real simulated controller over HTTP on 127.0.0.1 (an ephemeral port).

let clock = 1_700_000_000_000;
const sims: NanoleafSimDevice[] = [];
const drivers: NanoleafDriver[] = [];
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.close()));
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function sim(options: Parameters<typeof startNanoleafSim>[0] = {}) {
  const device = await startNanoleafSim({
    now: () => clock,
    serialNo: 'S1924TEST01',
    name: 'Shapes Test',
    ...options,
  });
  sims.push(device);
  return device;
}

async function paired(options: Parameters<typeof startNanoleafSim>[0] = {}) {
  const device = await sim(options);
  device.holdButton();
  const address = { host: device.host, port: device.port };
  const token = await pairNanoleaf(address, { pollMs: 20 });
  const events: DriverEvent[] = [];
  const driver = createNanoleafDriver({ address, token, probeIntervalMs: 40, timeoutMs: 1_000 });
  driver.subscribe((event) => events.push(event));
  drivers.push(driver);
  await driver.connect();
  return { device, driver, token, address, events };
}

const steps = (flag: string) => {
  const result = createLightProgram(flag);
  if (!result.ok) throw new Error(result.warning);
  return result.program.steps.filter(
    (s): s is Exclude<LightStep, { kind: 'restore' }> => s.kind !== 'restore',
  );
};

const waitFor = (check: () => boolean, ms = 2_000) => pollUntil(check, ms, 10);

describe('Nanoleaf pairing', () => {
  test('403 until the power button is held, then a 32-character token; the info names the device', async () => {
    const device = await sim();
    const address = { host: device.host, port: device.port };
    let waits = 0;
    const pairing = pairNanoleaf(address, {
      pollMs: 20,
      onWaiting: () => {
        waits += 1;
        if (waits === 3) device.holdButton();
      },
    });
    const token = await pairing;
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(waits).toBe(3);
    const info = await fetchNanoleafInfo(address, token);
    expect(info).toMatchObject({ id: 's1924test01', name: 'Shapes Test', model: 'NL42' });
    // 7 hexagons and the controller (shapeType 12, no LEDs).
    expect(info.panels).toHaveLength(8);
  });

  test('times out with a message saying what to do, and a retry then succeeds', async () => {
    const device = await sim();
    const address = { host: device.host, port: device.port };
    // A short pairing for the test, stretched as a ceiling is: on a loaded host the first poll alone
    // once outlasted 150 ms, and the controller was reported as never answering.
    const timeoutMs = paced(150);
    const failed = await pairNanoleaf(address, { pollMs: 20, timeoutMs }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LightError);
    expect((failed as LightError).kind).toBe('timeout');
    expect((failed as LightError).message).toBe(NANOLEAF_PAIRING_TIMED_OUT);
    expect((failed as LightError).message).toMatch(/Hold its power button for 5–7 seconds/);
    device.holdButton();
    await expect(pairNanoleaf(address, { pollMs: 20, timeoutMs })).resolves.toMatch(/^\w{32}$/);
  });

  test('an address that is not a Nanoleaf controller is refused clearly', async () => {
    expect(parseNanoleafAddress('192.168.1.30')).toEqual({ host: '192.168.1.30', port: 16_021 });
    expect(parseNanoleafAddress('http://127.0.0.1:4000/')).toEqual({ host: '127.0.0.1', port: 4000 });
    expect(parseNanoleafAddress('[fe80::1]:16021')).toEqual({ host: 'fe80::1', port: 16_021 });
    expect(() => parseNanoleafAddress('https://192.168.1.30')).toThrow(/plain HTTP/);
    expect(() => parseNanoleafAddress('a b')).toThrow(/Not a Nanoleaf address/);
    expect(() => parseNanoleafAddress('1.2.3.4:70000')).toThrow(/Not a Nanoleaf address/);
    const device = await sim();
    await expect(
      fetchNanoleafInfo({ host: device.host, port: device.port }, 'x'.repeat(32)),
    ).rejects.toMatchObject({
      kind: 'auth',
    });
  });
});

describe('Nanoleaf flags on a simulated controller', () => {
  test('lists the controller as one device', async () => {
    const { driver } = await paired();
    expect(await driver.listDevices()).toEqual([
      { id: 's1924test01', label: 'Shapes Test', name: 'Shapes Test', type: 'NL42', connected: true },
    ]);
  });

  test.each([
    ['green', 120, 100],
    ['vsc', 30, 100],
    ['vsc_ending', 30, 100],
  ])('%s: one PUT /state at full, then one at half brightness', async (flag, hue, sat) => {
    const { device, driver } = await paired();
    const [full, dim] = steps(flag);
    await driver.playStep([], full!);
    expect(device.view()).toMatchObject({
      on: true,
      hue,
      sat,
      brightness: 100,
      colorMode: 'hs',
      select: '*Solid*',
    });
    await driver.playStep([], dim!);
    expect(device.view()).toMatchObject({ hue, sat, brightness: 50 });
    expect(device.view().requests).toEqual({ total: 2, state: 2, effects: 0 });
  });

  test('fastest lap is purple (280/100); white has saturation 0; off switches the light off', async () => {
    const { device, driver } = await paired();
    await driver.playStep([], steps('fastest_lap')[0]!);
    expect(device.view()).toMatchObject({ hue: 280, sat: 100, brightness: 100 });
    await driver.setState([], { on: true, color: COLOR_PRESETS.white, brightness: 1, transitionMs: 0 });
    expect(device.view()).toMatchObject({ sat: 0, brightness: 100, on: true });
    expect(device.view().panels.every((p) => p.hex === '#ffffff')).toBe(true);
    await driver.setState([], { on: true, color: COLOR_PRESETS.black, brightness: 1, transitionMs: 0 });
    expect(device.view().on).toBe(false);
    expect(device.requests().at(-1)?.body).toEqual({ on: { value: false } });
    expect(FASTEST_LAP_PURPLE.hue).toBe(280);
  });

  test.each(['red', 'yellow', 'safety'])(
    '%s: the strobe is one looping custom effect (0.2 s period), then solid at half brightness',
    async (flag) => {
      const { device, driver } = await paired();
      const [strobe, solid] = steps(flag);
      await driver.playStep([], strobe!);
      const v = device.view();
      expect(v).toMatchObject({ colorMode: 'effect', select: '*Dynamic*', brightness: 100 });
      expect(v.effect).toMatchObject({ animType: 'custom', loop: true });
      const rgb = flag === 'red' ? '255 0 0' : '255 255 0';
      // 7 LED panels (the controller is left out), two frames each: colour then black, T = 1.
      expect(v.effect!.animData).toBe(
        `7 ${v.panels.map((p) => `${p.panelId} 2 ${rgb} 0 1 0 0 0 0 1`).join(' ')}`,
      );
      const lit = flag === 'red' ? '#ff0000' : '#ffff00';
      expect(v.panels.every((p) => p.hex === lit)).toBe(true);
      clock += 100;
      expect(device.view().panels.every((p) => p.hex === '#000000')).toBe(true);
      clock += 100;
      expect(device.view().panels.every((p) => p.hex === lit)).toBe(true);
      await driver.playStep([], solid!);
      expect(device.view()).toMatchObject({ colorMode: 'hs', brightness: 50, effect: null });
    },
  );

  test('checkered: even panels white→black, odd black→white, then solid white', async () => {
    const { device, driver } = await paired();
    const [strobe, solid] = steps('checkered');
    await driver.playStep([], strobe!);
    const panels = () => device.view().panels.map((p) => p.hex);
    const w = '#ffffff';
    const b = '#000000';
    expect(panels()).toEqual([w, b, w, b, w, b, w]);
    clock += 100;
    expect(panels()).toEqual([b, w, b, w, b, w, b]);
    await driver.playStep([], solid!);
    expect(panels()).toEqual([w, w, w, w, w, w, w]);
  });

  test('a strobe after a dimmed look also sets the brightness back (the effect is scaled by it)', async () => {
    const { device, driver } = await paired();
    for (const step of steps('green')) await driver.playStep([], step);
    const before = device.requests().length;
    await driver.playStep([], steps('red')[0]!);
    const sent = device.requests().slice(before);
    expect(sent.map((r) => r.path)).toEqual(['/api/v1/<token>/effects', '/api/v1/<token>/state']);
    expect(sent[1]!.body).toEqual({ brightness: { value: 100 }, on: { value: true } });
    expect(device.view().panels[0]!.hex).toBe('#ff0000');
  });

  test('a looping strobe that no newer look ends (paused mid-flag) is set solid after its length', async () => {
    const { device, address, token } = await paired();
    const driver = createNanoleafDriver({ address, token, strobeGuardMs: 50 });
    drivers.push(driver);
    await driver.connect();
    const strobe = { ...steps('red')[0]!, periodMs: 200, cycles: 1 } as Extract<
      LightStep,
      { kind: 'strobe' }
    >;
    await driver.playStep([], strobe);
    driver.cancelPending();
    expect(device.view().colorMode).toBe('effect');
    await waitFor(() => device.view().colorMode === 'hs');
    expect(device.view()).toMatchObject({ hue: 0, sat: 100, brightness: 100, on: true });
    // A newer look in time: nothing more is sent.
    await driver.playStep([], strobe);
    await driver.playStep([], steps('red')[1]!);
    const sent = device.view().requests.total;
    await new Promise((r) => setTimeout(r, 400));
    expect(device.view().requests.total).toBe(sent);
  });

  test('a device without panels (Essentials) flashes by paced /state writes', async () => {
    const { device, driver } = await paired({ panelCount: 0, model: 'NL72K' });
    expect(driver.info()?.panels).toBeNull();
    await driver.playStep([], steps('red')[0]!);
    expect(device.view()).toMatchObject({ hue: 0, sat: 100, on: true });
    await waitFor(() => device.view().requests.state >= 2);
    expect(device.view().on).toBe(false);
    driver.cancelPending();
    expect(driver.pendingCount()).toBe(0);
  });
});

describe('Nanoleaf with the effect player', () => {
  test('red: one effect at once (no expanded flashes), solid 50% red at 1.5 s', async () => {
    const { device, driver } = await paired();
    const player = createEffectPlayer({ driver, devices: () => ['s1924test01'] });
    const started = Date.now();
    player.play('red');
    await waitFor(() => device.view().colorMode === 'effect');
    expect(Date.now() - started).toBeLessThan(1_000);
    await waitFor(() => device.view().colorMode === 'hs', 3_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(device.view()).toMatchObject({ hue: 0, sat: 100, brightness: 50 });
    // The effect, the brightness it is scaled by, the solid look.
    expect(
      device
        .requests()
        .filter((r) => r.method === 'PUT')
        .map((r) => r.path.split('/').at(-1)),
    ).toEqual(['effects', 'state', 'state']);
    player.dispose();
  });
});

describe('Nanoleaf pacing', () => {
  test('one request in flight; queued looks coalesce and the latest wins', async () => {
    const { device, driver } = await paired();
    device.setFault({ delayMs: 80 });
    const hues = [0, 30, 60, 120, 240, 280, 10, 20, 40, 50];
    await Promise.all(
      hues.map((hue) =>
        driver.setState([], {
          on: true,
          color: { name: 'c', hue, saturation: 1 },
          brightness: 1,
          transitionMs: 0,
        }),
      ),
    );
    // The first went at once; the nine behind it collapsed into the last.
    expect(device.view().requests.state).toBe(2);
    expect(device.view().hue).toBe(50);
  });

  test('cancelPending drops what is queued behind the request in flight', async () => {
    const { device, driver } = await paired();
    device.setFault({ delayMs: 80 });
    const first = driver.setState([], {
      on: true,
      color: COLOR_PRESETS.green,
      brightness: 1,
      transitionMs: 0,
    });
    const second = driver.setState([], {
      on: true,
      color: COLOR_PRESETS.red,
      brightness: 1,
      transitionMs: 0,
    });
    expect(driver.pendingCount()).toBe(1);
    driver.cancelPending();
    await Promise.all([first, second]);
    expect(device.view().requests.state).toBe(1);
    expect(device.view().hue).toBe(120);
  });
});

describe('Nanoleaf faults', () => {
  test('a revoked token (401) disconnects the driver: pair again', async () => {
    const { device, driver, events } = await paired();
    device.revokeTokens();
    await expect(
      driver.setState([], { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 }),
    ).rejects.toMatchObject({ kind: 'auth' });
    expect(events).toContainEqual({ type: 'disconnect', error: expect.objectContaining({ kind: 'auth' }) });
    expect(driver.authorised).toBe(false);
    await expect(driver.playStep([], steps('red')[0]!)).rejects.toMatchObject({ kind: 'auth' });
  });

  test('another serial number at the paired address stops the driver: after the read that shows it, nothing is sent there', async () => {
    const { device, driver, events } = await paired();
    const green = { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 };
    await driver.setState([], green);
    device.setFault({ offline: true });
    await driver.setState([], green).catch(() => undefined);
    expect(driver.connected).toBe(false);
    // Another controller at the address, taking the token it is sent (the documented limit).
    const before = device.requests().length;
    device.setFault({ offline: false, serialNo: 'S7777IMPOST' });
    await waitFor(() => device.requests().length > before);
    await new Promise((r) => setTimeout(r, 400)); // ten probe intervals
    await driver.setState([], { ...green, color: COLOR_PRESETS.red }).catch(() => undefined);
    await driver.playStep([], steps('red')[0]!).catch(() => undefined);
    expect(
      device
        .requests()
        .slice(before)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['GET /api/v1/<token>/']);
    expect(events).toContainEqual({
      type: 'disconnect',
      error: { kind: 'auth', message: NANOLEAF_SERIAL_CHANGED },
    });
    expect(driver.replaced).toBe(true);
    // Still listed as the controller paired with, not answering.
    expect(await driver.listDevices()).toEqual([
      expect.objectContaining({ id: 's1924test01', label: 'Shapes Test', connected: false }),
    ]);
    await expect(driver.setState([], green)).rejects.toMatchObject({
      kind: 'auth',
      message: NANOLEAF_SERIAL_CHANGED,
    });
  });

  test('a driver started with the paired serial number sends nothing but the first read to another controller', async () => {
    const { device, address, token } = await paired();
    device.setFault({ serialNo: 'S7777IMPOST' });
    const before = device.requests().length;
    const driver = createNanoleafDriver({
      address,
      token,
      known: { id: 's1924test01', name: 'Shapes Test' },
      probeIntervalMs: 40,
      healthIntervalMs: 40,
    });
    drivers.push(driver);
    expect(await driver.connect()).toEqual([
      expect.objectContaining({ id: 's1924test01', connected: false }),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    await driver
      .setState([], { on: true, color: COLOR_PRESETS.red, brightness: 1, transitionMs: 0 })
      .catch(() => undefined);
    expect(
      device
        .requests()
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['GET']);
    expect(driver.replaced).toBe(true);
  });

  test('offline: reported unreachable, probed, re-found and sent its last look without a restart', async () => {
    const { device, driver, events } = await paired();
    device.setFault({ offline: true });
    await driver
      .setState([], { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 })
      .catch(() => undefined);
    expect(driver.connected).toBe(false);
    expect((await driver.listDevices())[0]!.connected).toBe(false);
    expect(events.some((e) => e.type === 'error')).toBe(true);
    // While away, the newest look is kept for its return.
    await driver.setState([], { on: true, color: COLOR_PRESETS.orange, brightness: 0.5, transitionMs: 0 });
    device.setFault({ offline: false });
    await waitFor(() => driver.connected);
    await waitFor(() => device.view().hue === 30);
    expect(device.view()).toMatchObject({ hue: 30, brightness: 50 });
  });

  test('an idle controller that leaves the network is reported without a flag being sent', async () => {
    const { device, address, token } = await paired();
    const driver = createNanoleafDriver({ address, token, healthIntervalMs: 40, probeIntervalMs: 40 });
    drivers.push(driver);
    await driver.connect();
    device.setFault({ offline: true });
    await waitFor(() => !driver.connected);
    device.setFault({ offline: false });
    await waitFor(() => driver.connected);
    expect(device.view().requests.total).toBe(0);
  });

  test('a slow device past the time-out is unreachable until it answers in time again', async () => {
    const { device, address, token } = await paired();
    const driver = createNanoleafDriver({ address, token, timeoutMs: 100, probeIntervalMs: 40 });
    drivers.push(driver);
    await driver.connect();
    device.setFault({ delayMs: 300 });
    await expect(
      driver.setState([], { on: true, color: COLOR_PRESETS.red, brightness: 1, transitionMs: 0 }),
    ).rejects.toMatchObject({ kind: 'timeout' });
    expect(driver.connected).toBe(false);
    device.setFault({ delayMs: 0 });
    await waitFor(() => driver.connected);
  });

  test('one dropped connection is tried again at once', async () => {
    const draws = [0, 0.99, 0.99, 0.99];
    const { device, driver } = await paired({ random: () => draws.shift() ?? 0.99 });
    device.setFault({ dropPercent: 50 });
    await driver.setState([], { on: true, color: COLOR_PRESETS.blue, brightness: 1, transitionMs: 0 });
    expect(driver.connected).toBe(true);
    expect(device.view().hue).toBe(240);
  });

  test('bad input is refused before anything is sent', async () => {
    const { device, driver, address } = await paired();
    await expect(
      driver.setState([], { on: true, color: COLOR_PRESETS.red, brightness: 2, transitionMs: 0 }),
    ).rejects.toMatchObject({ kind: 'bad-request', message: 'Brightness must be 0 to 1, not 2' });
    await expect(
      driver.setState([], {
        on: true,
        color: { name: 'x', hue: NaN, saturation: 1 },
        brightness: 1,
        transitionMs: 0,
      }),
    ).rejects.toMatchObject({ kind: 'bad-request' });
    await expect(
      driver.playStep([], { ...steps('red')[0]!, periodMs: 0 } as Extract<LightStep, { kind: 'strobe' }>),
    ).rejects.toThrow(/period/);
    expect(device.view().requests.total).toBe(0);
    expect(() => createNanoleafDriver({ address, token: 'not a token' })).toThrow(/16–64 letters/);
  });

  test('lights of another controller are not sent anything', async () => {
    const { device, driver, events } = await paired();
    await driver.setState(['someone-else'], {
      on: true,
      color: COLOR_PRESETS.red,
      brightness: 1,
      transitionMs: 0,
    });
    expect(device.view().requests.total).toBe(0);
    expect(events).toContainEqual({ type: 'warning', message: 'Unknown Nanoleaf lights: someone-else' });
  });
});
