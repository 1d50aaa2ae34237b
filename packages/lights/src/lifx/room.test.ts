import { startLifxSim, type RunningLifxSim } from '@flaglight/sims';
import { afterEach, expect, test } from 'vitest';
import { createLifxCloudDriver } from './driver.js';
import { LIFX_OFFLINE_REASON, lifxRestoreEntry } from './room.js';

let sim: RunningLifxSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function setup() {
  sim = await startLifxSim({});
  const driver = createLifxCloudDriver({ baseUrl: `${sim.url}/v1`, token: 'demo-token', gapMs: 0 });
  return { sim, driver, bulbs: sim.control.bulbs() };
}

type BulbView = ReturnType<RunningLifxSim['control']['bulbs']>[number];
const look = (bulb: BulbView) => ({
  power: bulb.power,
  hue: Math.round(bulb.color.hue),
  saturation: bulb.color.saturation,
  kelvin: bulb.color.kelvin,
  brightness: bulb.brightness,
});

test('each bulb is read as it is and given back as it was after a flag changed them all', async () => {
  const { sim, driver, bulbs } = await setup();
  const ids = bulbs.slice(0, 4).map((b) => b.id);
  const before = bulbs.slice(0, 4).map(look);
  // The simulator starts them apart: one off, one dimmed, colours and whites.
  expect(new Set(before.map((b) => JSON.stringify(b))).size).toBe(4);
  expect(before.some((b) => b.power === 'off')).toBe(true);

  const saved = await driver.readStates(ids);
  expect(Object.keys(saved).sort()).toEqual([...ids].sort());
  expect(saved[ids[1]!]).toMatchObject({ readable: true, on: false });

  await driver.setState(ids, {
    on: true,
    color: { name: 'red', hue: 0, saturation: 1 },
    brightness: 1,
    transitionMs: 0,
  });
  expect(
    sim.control
      .bulbs()
      .slice(0, 4)
      .every((b) => b.power === 'on' && b.color.hue === 0),
  ).toBe(true);

  const report = await driver.restoreStates(saved);
  expect(report.left).toEqual([]);
  expect(report.restored.sort()).toEqual([...ids].sort());
  const after = sim.control.bulbs().slice(0, 4).map(look);
  for (const [i, was] of before.entries()) {
    const now = after[i]!;
    expect(now.power).toBe(was.power);
    if (was.power === 'off') continue;
    expect(now.brightness).toBeCloseTo(was.brightness, 3);
    expect(now.saturation).toBeCloseTo(was.saturation, 3);
    if (was.saturation > 0) expect(now.hue).toBe(was.hue);
    else expect(now.kelvin).toBe(was.kelvin);
  }
  // One list call to read, one batch call to give back.
  const requests = sim.control.requests().map((r) => `${r.method} ${r.path}`);
  expect(requests.filter((r) => r === 'PUT /v1/lights/states')).toHaveLength(1);
});

test('a bulb LIFX lists as offline cannot be read and is left as it is', async () => {
  const { sim, driver, bulbs } = await setup();
  sim.control.setConnected(bulbs[2]!.id, false);
  const saved = await driver.readStates([bulbs[0]!.id, bulbs[2]!.id]);
  expect(saved[bulbs[2]!.id]).toEqual({ readable: false, reason: LIFX_OFFLINE_REASON });
  const report = await driver.restoreStates(saved);
  expect(report.restored).toEqual([bulbs[0]!.id]);
  expect(report.left).toEqual([{ id: bulbs[2]!.id, reason: LIFX_OFFLINE_REASON }]);
});

test('a bulb that was off is only turned off; a white one gets its kelvin', () => {
  expect(
    lifxRestoreEntry('a1', { power: 'off', hue: 10, saturation: 1, kelvin: 3500, brightness: 1 }),
  ).toEqual({
    selector: 'id:a1',
    power: 'off',
    duration: 0,
  });
  expect(
    lifxRestoreEntry('a1', { power: 'on', hue: 0, saturation: 0, kelvin: 2700, brightness: 0.6 }),
  ).toEqual({
    selector: 'id:a1',
    power: 'on',
    color: 'kelvin:2700 saturation:0',
    brightness: 0.6,
    duration: 0,
  });
});
