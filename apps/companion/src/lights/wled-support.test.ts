import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLanSim, startWledSim, type LanSim, type WledSimDevice } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { pollUntil } from '../../../../scripts/test-pace.mjs';
import { OptionError, parseWledAddresses } from '../options.js';
import { createLogger } from '../system/log.js';
import { waitForDemoLan, withDemoLan, type DemoLanTargets } from './demo-lan.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';
import { startWledSupport } from './wled-support.js';

// WLED through the companion: simulated devices over HTTP on 127.0.0.1, never mDNS (a search is
// passed in as a function).

const sims: WledSimDevice[] = [];
let hub: LightsHub | null = null;
let lan: LanSim | null = null;
let server: http.Server | null = null;
afterEach(async () => {
  await hub?.close();
  hub = null;
  await Promise.all(sims.splice(0).map((s) => s.close()));
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = null;
  await lan?.close();
  lan = null;
});

const until = (condition: () => boolean, timeoutMs = 4_000) => pollUntil(condition, timeoutMs);

async function devices(count: number) {
  for (let k = 0; k < count; k += 1)
    sims.push(await startWledSim({ name: `Strip ${k + 1}`, mac: `a0b765e0000${k + 1}` }));
  return sims;
}

const address = (d: WledSimDevice) => ({ host: d.host, port: d.port });

describe('WLED in the companion', () => {
  test('--wled HOST[:PORT],… is read; a bad address names the option', () => {
    expect(parseWledAddresses('192.168.1.40, wled-shelf.local:8080')).toEqual([
      { host: '192.168.1.40', port: 80 },
      { host: 'wled-shelf.local', port: 8080 },
    ]);
    expect(parseWledAddresses('')).toEqual([]);
    expect(() => parseWledAddresses('https://192.168.1.40')).toThrow(OptionError);
    expect(() => parseWledAddresses('https://192.168.1.40')).toThrow(/^--wled: /);
  });

  test('the devices given join the hub as wled lights and play a flag through the player', async () => {
    const [a, b] = await devices(2);
    const log = createLogger({ console: false });
    hub = createLightsHub({ log });
    await startWledSupport({ hub, log, addresses: [address(a!), address(b!)], mdns: false });
    expect(hub.lights().map((l) => [l.provider, l.id, l.label, l.reachable])).toEqual([
      ['wled', a!.id, 'Strip 1', true],
      ['wled', b!.id, 'Strip 2', true],
    ]);
    hub.play('red');
    await until(() => sims.every((d) => d.view().effect === 'Blink'));
    // SPEC §4: the strobe, then red at half brightness after 1.5 s.
    await until(() => sims.every((d) => d.view().effect === 'Solid' && d.view().hex === '#800000'));
    // The selection of the account: only the first strip is driven.
    hub.setSelection({ selectedLights: { wled: [a!.id] }, sharedLightsDriver: 'companion' });
    hub.play('green');
    await until(() => a!.view().hex === '#00ff00');
    expect(b!.view().hex).toBe('#800000');
  });

  test("--wled A,B: A answering with B's MAC while B is down does not keep B from its own address once both answer normally", async () => {
    const [a, b] = await devices(2);
    const log = createLogger({ console: false });
    hub = createLightsHub({ log });
    await startWledSupport({ hub, log, addresses: [address(a!), address(b!)], mdns: false });
    b!.setFault({ offline: true });
    a!.setFault({ mac: b!.id });
    await hub.rescan();
    // A is not driven while it answers as B (B may be, at A's address, while its own is silent).
    await until(() => hub!.lights().find((l) => l.id === a!.id)?.reachable === false, 8_000);
    // Both answer normally again; no restart.
    a!.setFault({ mac: null });
    b!.setFault({ offline: false });
    await hub.rescan();
    await until(() => hub!.lights().filter((l) => l.reachable).length === 2, 8_000);
    expect(hub.lights().map((l) => [l.id, l.reachable])).toEqual([
      [a!.id, true],
      [b!.id, true],
    ]);
    const before = b!.view().requests.writes;
    hub.play('green');
    await until(() => a!.view().hex === '#00ff00' && b!.view().hex === '#00ff00');
    expect(b!.view().requests.writes).toBeGreaterThan(before);
  });

  test('with the LAN scan, devices the search finds are added, and again on a rescan', async () => {
    const [a, b] = await devices(2);
    const log = createLogger({ console: false });
    hub = createLightsHub({ log });
    let found = [address(a!)];
    await startWledSupport({
      hub,
      log,
      addresses: [address(a!)],
      mdns: true,
      findDevices: async () => found,
    });
    expect(hub.lights().map((l) => l.id)).toEqual([a!.id]);
    found = [address(a!), address(b!)];
    await hub.rescan();
    expect(hub.lights().map((l) => l.id)).toEqual([a!.id, b!.id]);
  });

  test("--demo finds the LAN simulator's WLED devices with no flag", async () => {
    lan = await startLanSim();
    server = http.createServer((request, response) => {
      if (request.url !== '/sims/lan/state') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(lan!.state()));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const given: DemoLanTargets = {
      lifxTargets: [],
      hueBridges: [],
      goveeTargets: [],
      goveePorts: { scan: 4001, listen: 4002, command: 4003 },
      nanoleaf: [],
    };
    const log = createLogger({ console: false });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const targets = withDemoLan(given, await waitForDemoLan(url, log, new AbortController().signal));
    expect(targets.wled).toEqual(lan.wled.map((d) => ({ host: '127.0.0.1', port: d.port })));
    hub = createLightsHub({ log });
    await startWledSupport({ hub, log, addresses: targets.wled ?? [], mdns: false });
    expect(hub.lights().map((l) => [l.label, l.reachable])).toEqual([
      ['Desk strip', true],
      ['Shelf', true],
    ]);
  });
});
