import { startWledSim, type WledSimDevice } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { until } from '../../test/demo-server.js';
import { createLogger } from '../system/log.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';
import { startWledSupport } from './wled-support.js';

// A test flag with no race followed gives the lights back as they were, once the test ends; during
// a race it goes back to the race's flag. Two WLED strips, simulated over HTTP on 127.0.0.1.

const sims: WledSimDevice[] = [];
let hub: LightsHub | null = null;
afterEach(async () => {
  await hub?.close();
  hub = null;
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function startStrips() {
  for (const k of [1, 2]) sims.push(await startWledSim({ name: `Strip ${k}`, mac: `a0b765e2000${k}` }));
  const log = createLogger({ console: false });
  hub = createLightsHub({ log });
  const address = (d: WledSimDevice) => ({ host: d.host, port: d.port });
  await startWledSupport({ hub, log, addresses: sims.map(address), mdns: false });
  return { hub, strips: sims };
}

/** What a strip shows that the room cares about: its colour now, power and running effect. */
const look = (d: WledSimDevice) => ({ hex: d.view().hex, on: d.view().state.on, effect: d.view().effect });

describe('a test flag on the LAN lights', () => {
  test('with no race followed, the lights are given back as they were once the test ends', async () => {
    const { hub, strips } = await startStrips();
    const before = strips.map(look);
    expect(hub.playTest('red')).toBe(true);
    await until(() => strips.every((d) => d.view().hex === '#800000'), "the test's settled red", {
      ms: 10_000,
      everyMs: 25,
    });
    await until(
      () => strips.every((d, i) => JSON.stringify(look(d)) === JSON.stringify(before[i])),
      'the room as it was',
    );
  });

  test('during a race, the test goes back to the race flag, not to the room before the race', async () => {
    const { hub, strips } = await startStrips();
    hub.play('green');
    await until(() => strips.every((d) => d.view().hex === '#008000'), 'the race green, settled', {
      ms: 10_000,
      everyMs: 25,
    });
    hub.playTest('red');
    await until(() => strips.every((d) => d.view().hex === '#800000'), "the test's settled red", {
      ms: 10_000,
      everyMs: 25,
    });
    await until(() => strips.every((d) => d.view().hex === '#008000'), 'the race green again', {
      ms: 10_000,
      everyMs: 25,
    });
  });

  test('a race flag during the test takes the lights, and nothing is given back after it', async () => {
    const { hub, strips } = await startStrips();
    hub.playTest('red');
    await until(() => strips.every((d) => d.view().hex === '#800000'), "the test's settled red", {
      ms: 10_000,
      everyMs: 25,
    });
    hub.play('yellow');
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(strips.every((d) => d.view().effect === 'Solid' && d.view().hex !== '#800000')).toBe(true);
    expect(strips.map((d) => d.view().hex)).toEqual(strips.map(() => strips[0]!.view().hex));
  });
});
