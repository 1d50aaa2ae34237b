import { NIGHT_RACE } from '@flaglight/core';
import { startWledSim, type WledSimDevice } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { until } from '../../test/demo-server.js';
import { createLogger } from '../system/log.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';
import { startWledSupport } from './wled-support.js';

// A light ticked during a race joins the flag showing at once, as in the browser: two WLED strips
// (simulated over HTTP on 127.0.0.1), only the first driven, then the second ticked mid-race.

const sims: WledSimDevice[] = [];
let hub: LightsHub | null = null;
afterEach(async () => {
  await hub?.close();
  hub = null;
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function twoStrips(looks?: () => typeof NIGHT_RACE) {
  for (const k of [1, 2]) sims.push(await startWledSim({ name: `Strip ${k}`, mac: `a0b765e1000${k}` }));
  const [a, b] = sims as [WledSimDevice, WledSimDevice];
  const log = createLogger({ console: false });
  hub = createLightsHub({ log, ...(looks ? { looks } : {}) });
  const address = (d: WledSimDevice) => ({ host: d.host, port: d.port });
  await startWledSupport({ hub, log, addresses: [address(a), address(b)], mdns: false });
  hub.setSelection({ selectedLights: { wled: [a.id] }, sharedLightsDriver: 'companion' });
  return { a, b, hub };
}

describe('a LAN light ticked during a race', () => {
  test('takes the flag showing at once, settled, without waiting for the next flag', async () => {
    const { a, b, hub } = await twoStrips();
    hub.play('green');
    await until(() => a.view().hex === '#00ff00', 'green on the driven strip', { ms: 4_000, everyMs: 25 });
    const untouched = b.view();
    expect(untouched.hex).not.toBe('#00ff00');

    hub.setSelection({ selectedLights: { wled: [a.id, b.id] }, sharedLightsDriver: 'companion' });
    // Green as it settles (SPEC §4: half brightness), as the first strip shows it once its effect ends.
    await until(() => b.view().hex === '#008000' && b.view().state.on, 'green on the strip ticked mid-race', {
      ms: 4_000,
      everyMs: 25,
    });
    await until(() => a.view().hex === '#008000', 'the driven strip settled on the same green', {
      ms: 6_000,
      everyMs: 25,
    });
    expect(hub.lights().find((l) => l.id === b.id)?.lastColor?.name).toBe(
      hub.lights().find((l) => l.id === a.id)?.lastColor?.name,
    );
  });

  test("plays the account's look for the flag (Night race's red, settled at 25 %), and leaves a light alone with no race followed", async () => {
    const { a, b, hub } = await twoStrips(() => NIGHT_RACE);
    const before = b.view().requests.writes;
    // No flag yet: ticking it changes nothing.
    hub.setSelection({ selectedLights: { wled: [] }, sharedLightsDriver: 'companion' });
    hub.setSelection({ selectedLights: { wled: [a.id, b.id] }, sharedLightsDriver: 'companion' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(b.view().requests.writes).toBe(before);

    hub.setSelection({ selectedLights: { wled: [a.id] }, sharedLightsDriver: 'companion' });
    hub.play('red');
    await until(() => a.view().state.on, 'the red on the driven strip', { ms: 4_000, everyMs: 25 });
    hub.setSelection({ selectedLights: { wled: [a.id, b.id] }, sharedLightsDriver: 'companion' });
    await until(
      () => b.view().hex === '#400000',
      "the strip ticked mid-race shows Night race's settled red",
      { ms: 4_000, everyMs: 25 },
    );
    await until(() => a.view().hex === '#400000', 'the driven strip settles on the same red', {
      ms: 8_000,
      everyMs: 25,
    });
  });

  test('a paused companion does not light a ticked light', async () => {
    const { a, b, hub } = await twoStrips();
    hub.play('yellow');
    await until(() => a.view().state.on && a.view().effect === 'Solid', 'yellow settled', {
      ms: 6_000,
      everyMs: 25,
    });
    hub.setPaused(true);
    const before = b.view().requests.writes;
    hub.setSelection({ selectedLights: { wled: [a.id, b.id] }, sharedLightsDriver: 'companion' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(b.view().requests.writes).toBe(before);
  });
});
