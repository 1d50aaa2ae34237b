import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HueBridgeCandidate } from '@flaglight/lights/lan';
import { startLocalHueBridge, type LocalHueBridge } from '@flaglight/sims';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { paced, pollFor } from '../../../../scripts/test-pace.mjs';
import { createLogger, type Logger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { createHueSupport, type HueSupport } from './hue-support.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';

// A paired Hue bridge whose address changes (its DHCP lease ran out): the simulated bridge on
// 127.0.0.1 moves to another port with its id, certificate and keys. The mDNS answers are handed in
// as recorded records (no multicast); the hub, the Hue support and its driver are the companion's.

let bridge: LocalHueBridge;
let closers: (() => Promise<void>)[] = [];
let dir: string;
let log: Logger;
let hub: LightsHub;
let support: HueSupport;
/** What the next mDNS search "hears". */
let heard: Pick<HueBridgeCandidate, 'url' | 'bridgeId'>[] = [];

/** A failure says what it waited for and what the log said meanwhile. */
const until = <T>(check: () => T | Promise<T>, what: string, ms = 30_000) =>
  pollFor(
    check,
    () =>
      `${what}\n${log
        .recent()
        .map((e) => e.message)
        .join('\n')}`,
    ms,
    50,
  );

const hueLights = () => hub.lights().filter((light) => light.provider === 'hue_local');
/** Light commands the bridge took since `since` (epoch ms). */
const commandsSince = (target: LocalHueBridge, since: number) =>
  target.commands().filter((c) => c.at >= since && c.status === 200);

beforeEach(async () => {
  bridge = await startLocalHueBridge();
  closers.push(() => bridge.close());
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-hue-relocate-'));
  log = createLogger({ console: false });
  hub = createLightsHub({ log });
  support = createHueSupport({
    hub,
    log,
    store: new StateFile(dir),
    mdns: true,
    deviceName: 'race desk',
    findBridges: () => Promise.resolve(heard),
  });
  heard = [{ url: bridge.url, bridgeId: bridge.id }];
  await support.start([], null);
  bridge.pressLinkButton();
  expect(await support.pair(bridge.url)).toEqual({ ok: true, name: 'Flaglight LAN bridge' });
  await until(() => hueLights().length === 4 && hueLights().every((l) => l.reachable), 'the four lights');
  // The race's flag: green on every light.
  const before = Date.now();
  hub.play('green');
  await until(() => commandsSince(bridge, before).length >= 4, 'green on the bridge');
  heard = [];
});
afterEach(async () => {
  await support.close();
  await hub.close();
  for (const close of closers.reverse()) await close();
  closers = [];
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a paired Hue bridge that moves to another address', () => {
  test('its lights are unreachable while it is silent, then found by id and certificate, driven there and shown the race flag again', async () => {
    const oldUrl = bridge.url;
    await bridge.move();
    const moved = Date.now();
    // Nothing answers at the old address: the lights say so (no longer "reachable, last colour green").
    await until(() => hueLights().every((l) => !l.reachable), 'the lights to be reported unreachable');
    expect(hueLights()).toHaveLength(4);

    // mDNS hears the bridge at its new address.
    heard = [{ url: bridge.url, bridgeId: bridge.id }];
    await until(() => hueLights().length === 4 && hueLights().every((l) => l.reachable), 'the lights back');
    expect(support.view().bridges).toEqual([{ url: bridge.url, name: 'Flaglight LAN bridge', paired: true }]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')).hueBridges[0].url).toBe(
      bridge.url,
    );
    expect(bridge.url).not.toBe(oldUrl);
    // Without a new flag, the bridge at its new address shows the race's flag again (green, no blue).
    await until(() => commandsSince(bridge, moved).length >= 4, 'the race flag sent to the new address');
    const lit = bridge.view().lights.filter((l) => l.on);
    expect(lit).toHaveLength(4);
    for (const light of lit) expect(light.hex).toMatch(/^#00[0-9a-f]{2}[0-9a-f]{2}$/);

    // And the next flag reaches it there.
    const next = Date.now();
    hub.play('red');
    await until(() => commandsSince(bridge, next).length >= 4, 'red at the new address');
  });

  test(
    'a device announcing its id with another certificate gets no key and no command; the lights stay unreachable until the bridge itself answers',
    { timeout: paced(120_000) },
    async () => {
      await bridge.move();
      await until(() => hueLights().every((l) => !l.reachable), 'the lights to be reported unreachable');
      // Same MAC, so the same id and certificate CN, but a key pair of its own.
      const lookalike = await startLocalHueBridge({ mac: '00:17:88:6a:2b:3d' });
      closers.push(() => lookalike.close());
      expect(lookalike.id).toBe(bridge.id);
      heard = [{ url: lookalike.url, bridgeId: lookalike.id }];
      await until(
        () =>
          log
            .recent()
            .some((e) => e.message.includes(`at ${lookalike.url}`) && /certificate changed/.test(e.message)),
        'the changed certificate to be told',
      );
      // Twice the first back-off: looked at again, still refused.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(hueLights().every((l) => !l.reachable)).toBe(true);
      expect(lookalike.commands()).toEqual([]);
      expect(lookalike.view().applications).toBe(0);
      expect(support.view().bridges[0]!.url).not.toBe(lookalike.url);

      heard = [
        { url: lookalike.url, bridgeId: lookalike.id },
        { url: bridge.url, bridgeId: bridge.id },
      ];
      await until(() => hueLights().every((l) => l.reachable), 'the lights back at the real bridge', 90_000);
      expect(lookalike.commands()).toEqual([]);
    },
  );
});
