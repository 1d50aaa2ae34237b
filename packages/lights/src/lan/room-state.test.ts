import {
  HOME_ASSISTANT_DEMO_TOKEN,
  startHomeAssistantSim,
  startLocalHueBridge,
  startNanoleafSim,
  startVirtualGoveeDevices,
  startVirtualLifxBulbs,
  startWledSim,
} from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced, pollFor } from '../../../../scripts/test-pace.mjs';
import type { LightDriver, LightStateCommand } from '../driver.js';
import { createGoveeLanDriver } from './govee/driver.js';
import { createHomeAssistantDriver } from './home-assistant/driver.js';
import { pairHueBridge } from './hue/bridge.js';
import { createHueLocalDriver } from './hue/driver.js';
import { createLifxLanDriver } from './lifx/driver.js';
import { createNanoleafDriver } from './nanoleaf/driver.js';
import { pairNanoleaf } from './nanoleaf/pairing.js';
import type { RoomStateDriver } from './room-state.js';
import { createWledDriver } from './wled/driver.js';

// "As it was" per brand, against each brand's simulator over real UDP and HTTP on 127.0.0.1: the
// driver reads every light's own state, a flag changes them, and the saved states put them back.

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

const until = <T>(check: () => T | Promise<T>, what: string, ms = 2_500) => pollFor(check, what, ms);

/**
 * The round trip every brand makes: read, a red look on all, the states put back; `view` is what the
 * simulator shows of every light (JSON), compared before and after.
 */
async function roundTrip(driver: LightDriver & RoomStateDriver, view: () => unknown, ids: string[]) {
  const before = JSON.stringify(view());
  const saved = await driver.readStates(ids);
  expect(Object.keys(saved).sort()).toEqual([...ids].sort());
  expect(Object.values(saved).every((s) => s.readable)).toBe(true);
  await driver.setState(ids, RED);
  await until(() => JSON.stringify(view()) !== before, 'the red look');
  const report = await driver.restoreStates(saved);
  expect(report.left).toEqual([]);
  expect(report.restored.sort()).toEqual([...ids].sort());
  await until(() => JSON.stringify(view()) === before, 'every light as it was').catch(() => {
    expect(view()).toEqual(JSON.parse(before));
  });
  return saved;
}

describe('giving the room back, per brand', { timeout: paced(15_000) }, () => {
  test('LIFX LAN: LightGet reads HSBK and power; SetColor then SetPower put them back, off bulbs off again', async () => {
    const bulbs = await startVirtualLifxBulbs({ count: 4 });
    cleanup.push(() => bulbs.close());
    const driver = createLifxLanDriver({
      targets: [{ host: bulbs.host, port: bulbs.discoveryPort }],
      bindAddress: LOOPBACK,
      discoveryWindowMs: 150,
      rescanIntervalMs: 0,
    });
    cleanup.push(() => driver.close());
    const ids = (await driver.discover()).map((d) => d.id);
    expect(ids).toHaveLength(4);
    const view = () => bulbs.list().map((b) => ({ id: b.id, on: b.on, color: b.color }));
    expect(view().filter((b) => !b.on)).toHaveLength(1);
    const saved = await roundTrip(driver, view, ids);
    expect(Object.values(saved).filter((s) => s.readable && !s.on)).toHaveLength(1);
  });

  test('Hue bridge: CLIP v2 on, dimming and xy are read and put back (the light that was off is off again)', async () => {
    const bridge = await startLocalHueBridge();
    cleanup.push(() => bridge.close());
    bridge.pressLinkButton();
    const pairing = await pairHueBridge(bridge.url, { deviceType: 'flaglight#test' });
    const driver = createHueLocalDriver({ url: bridge.url, ...pairing, gapMs: 20 });
    cleanup.push(() => driver.close());
    const ids = (await driver.connect()).map((l) => l.id);
    const view = () =>
      bridge.view().lights.map((l) => ({ on: l.on, brightness: l.brightness, xy: l.on ? l.xy : null }));
    expect(view().filter((l) => !l.on)).toHaveLength(1);
    await roundTrip(driver, view, ids);
  });

  test('Nanoleaf: /state and the selected effect are read; a saved effect is selected again, an off controller turned off', async () => {
    const devices = [
      await startNanoleafSim({ serialNo: 'S1', firstLook: { on: false, hue: 210, sat: 80, brightness: 70 } }),
      await startNanoleafSim({
        serialNo: 'S2',
        firstLook: { brightness: 30, colorMode: 'effect', select: 'Northern Lights' },
      }),
    ];
    for (const device of devices) {
      cleanup.push(() => device.close());
      device.holdButton();
      const address = { host: device.host, port: device.port };
      const token = await pairNanoleaf(address, { pollMs: 20 });
      const driver = createNanoleafDriver({ address, token, timeoutMs: 1_000 });
      cleanup.push(() => driver.close());
      const [info] = await driver.connect();
      const view = () => {
        const v = device.view();
        return {
          on: v.on,
          brightness: v.brightness,
          colorMode: v.colorMode,
          select: v.select,
          hue: v.hue,
          sat: v.sat,
        };
      };
      const saved = await roundTrip(driver, view, [info!.id]);
      expect(saved[info!.id]).toMatchObject({ readable: true });
    }
    expect(devices[1]!.view()).toMatchObject({ colorMode: 'effect', select: 'Northern Lights', on: true });
  });

  test('Govee LAN: devStatus is read and turn, brightness and colorwc put it back', async () => {
    const sim = await startVirtualGoveeDevices({ count: 4 });
    cleanup.push(() => sim.close());
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
    const ids = (await driver.discover()).map((d) => d.id);
    expect(ids).toHaveLength(4);
    // An off device is only turned off again (its colour is not written: that could light it up).
    const view = () =>
      sim
        .list()
        .map((d) =>
          d.on ? { on: d.on, brightness: d.brightness, color: d.color, kelvin: d.kelvin } : { on: false },
        );
    await roundTrip(driver, view, ids);
  });

  test('WLED: /json/state is read with its preset; the preset is loaded again, an off strip turned off', async () => {
    const running = await startWledSim({ mac: 'a0b765000011', first: { ps: 1 } });
    const off = await startWledSim({
      mac: 'a0b765000012',
      first: { on: false, bri: 60, col: [40, 120, 255] },
    });
    cleanup.push(
      () => running.close(),
      () => off.close(),
    );
    const driver = createWledDriver({
      addresses: [running, off].map((d) => ({ host: d.host, port: d.port })),
      timeoutMs: 1_000,
    });
    cleanup.push(() => driver.close());
    const ids = (await driver.connect()).map((d) => d.id);
    const view = () => [running, off].map((d) => d.view().state);
    const saved = await roundTrip(driver, view, ids);
    expect(saved.a0b765000011).toMatchObject({ readable: true, state: { ps: 1 } });
    expect(running.view().state).toMatchObject({ ps: 1 });
  });

  test('Home Assistant: each entity state and attributes are read; turn_on in its colour mode or turn_off put it back', async () => {
    const sim = await startHomeAssistantSim();
    cleanup.push(() => sim.close());
    const driver = createHomeAssistantDriver({
      url: sim.url,
      token: HOME_ASSISTANT_DEMO_TOKEN,
      paceMs: 30,
      timeoutMs: 1_000,
    });
    cleanup.push(() => driver.close());
    const ids = (await driver.connect()).filter((l) => l.connected).map((l) => l.id);
    const view = () =>
      sim
        .view()
        .lights.filter((l) => ids.includes(l.entityId))
        .map((l) => ({ id: l.entityId, state: l.state, hex: l.hex }));
    expect(view().filter((l) => l.state === 'off').length).toBeGreaterThan(0);
    expect(view().filter((l) => l.state === 'on').length).toBeGreaterThan(0);
    await roundTrip(driver, view, ids);
  });

  test('a light that does not answer is left out of the read, and one gone is left with why', async () => {
    const bulbs = await startVirtualLifxBulbs({ count: 2 });
    cleanup.push(() => bulbs.close());
    const driver = createLifxLanDriver({
      targets: [{ host: bulbs.host, port: bulbs.discoveryPort }],
      bindAddress: LOOPBACK,
      discoveryWindowMs: 150,
      rescanIntervalMs: 0,
      resendAfterMs: 50,
      attempts: 2,
    });
    cleanup.push(() => driver.close());
    const [first, second] = (await driver.discover()).map((d) => d.id);
    bulbs.setFault(bulbs.list()[1]!.id, { offline: true });
    const saved = await driver.readStates([first!, second!]);
    expect(Object.keys(saved)).toEqual([first]);
    const report = await driver.restoreStates({
      ...saved,
      gone: { readable: true, on: true, state: {} },
      written: { readable: false, reason: 'This light can only be written' },
    });
    expect(report.restored).toEqual([first]);
    expect(report.left).toEqual(
      expect.arrayContaining([
        { id: 'gone', reason: 'This LIFX bulb was not found on the network' },
        { id: 'written', reason: 'This light can only be written' },
      ]),
    );
  });
});
