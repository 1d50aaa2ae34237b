import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NANOLEAF_MDNS_MAX_FOUND, type NanoleafCandidate } from '@flaglight/lights/lan';
import { startNanoleafSim, type NanoleafSimDevice } from '@flaglight/sims';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pollUntil } from '../../../../scripts/test-pace.mjs';
import { createLogger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';
import { createNanoleafSupport, type NanoleafSupport } from './nanoleaf-support.js';

// A paired controller's token goes only to that controller. Everything runs on 127.0.0.1: the
// simulated controller, a stranger's HTTP server, TCP relays standing for a controller's new
// address; the mDNS answers are handed in as recorded records (no multicast).

const MDNS_ID = '5E:2D:A1:00:00:01';
const closers: (() => Promise<void>)[] = [];
let device: NanoleafSimDevice;
let dir: string;
let store: StateFile;
let hub: LightsHub;
let support: NanoleafSupport;
/** What the next mDNS search "hears". */
let heard: NanoleafCandidate[] = [];

function start() {
  hub = createLightsHub({ log: createLogger({ console: false }) });
  support = createNanoleafSupport({
    hub,
    log: createLogger({ console: false }),
    store,
    mdns: true,
    findControllers: () => Promise.resolve(heard),
    // Every pairing here finds the button held: the window only bounds one that fails. A short one
    // (400 ms) failed the pairing under a fully loaded CI machine, where a request took longer.
    pairingTimeoutMs: 5_000,
    pollMs: 25,
  });
}

beforeEach(async () => {
  device = await startNanoleafSim({ name: 'Shapes Den', serialNo: 'S1924COMP01', panelCount: 4 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-nanoleaf-move-'));
  store = new StateFile(dir);
  store.load();
  heard = [];
  start();
});
afterEach(async () => {
  await support.close();
  await hub.close();
  for (const close of closers.splice(0).reverse()) await close();
  await device.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const announce = (port: number, deviceId: string | null): NanoleafCandidate => ({
  deviceId,
  model: 'NL42',
  name: 'Shapes Den',
  host: '127.0.0.1',
  port,
});

/** A stranger on the LAN answering as a Nanoleaf would without a token: it keeps what it is sent. */
async function stranger() {
  const seen: { url: string; headers: string }[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: JSON.stringify(request.headers) });
    response.writeHead(401).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, seen };
}

/** The simulated controller reachable at another port (a new DHCP address): a TCP relay to it. */
async function relay(to: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(to, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let open = true;
  const close = () =>
    new Promise<void>((resolve) => {
      if (!open) return resolve();
      open = false;
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  closers.push(close);
  return { port: (server.address() as AddressInfo).port, close };
}

const waitFor = (check: () => boolean, ms = 5_000) => pollUntil(check, ms);

/** Pairs the controller found (by mDNS) at `port`; returns the token it gave. */
async function pairFound(port: number): Promise<string> {
  heard = [announce(port, MDNS_ID)];
  device.holdButton();
  await support.start([], null);
  expect(await support.pair(undefined)).toEqual({ ok: true, name: 'Shapes Den' });
  const [stored] = store.get().nanoleafDevices;
  expect(stored).toMatchObject({ port, id: 's1924comp01', mdnsId: MDNS_ID });
  return stored!.token;
}

/** The paired controller stops answering: a flag finds it gone. */
async function loseIt(leave: () => Promise<void> | void) {
  await leave();
  hub.play('green');
  await waitFor(() => hub.lights()[0]?.reachable === false);
}

describe('Nanoleaf: a token goes only to the controller that issued it', () => {
  test('a stranger announced at a new address without the paired mDNS id never receives the token; the status says pair again', async () => {
    const token = await pairFound(device.port);
    await loseIt(() => void device.setFault({ offline: true }));

    const other = await stranger();
    const silent = await stranger();
    heard = [announce(other.port, 'AA:BB:CC:00:00:09'), announce(silent.port, null)];
    await support.discover();

    for (const { seen } of [other, silent]) {
      expect(seen.filter((r) => r.url.includes(token) || r.headers.includes(token))).toEqual([]);
      // Nothing else either: no request without a token identifies a Nanoleaf controller.
      expect(seen).toEqual([]);
    }
    expect(support.view().pairing).toMatch(
      /Shapes Den is not answering.*could not be confirmed.*token was not sent.*pair it again/,
    );
    expect(support.view().devices).toContainEqual({
      address: `127.0.0.1:${device.port}`,
      name: 'Shapes Den',
      paired: true,
      id: 's1924comp01',
      needsPairing: true,
    });
    // The token stays with this computer, at the address it was issued for.
    expect(store.get().nanoleafDevices).toEqual([
      expect.objectContaining({ port: device.port, token, mdnsId: MDNS_ID }),
    ]);

    // Back at its own address: driven again, no longer "pair again".
    device.setFault({ offline: false });
    await waitFor(() => support.view().devices.some((d) => d.paired && !d.needsPairing), 8_000);
  });

  test('the controller moving to a new port, announced with its mDNS id, is followed there with its token', async () => {
    const before = await relay(device.port);
    const token = await pairFound(before.port);
    await loseIt(() => before.close());

    const after = await relay(device.port);
    heard = [announce(after.port, MDNS_ID)];
    await support.discover();

    expect(store.get().nanoleafDevices).toEqual([
      expect.objectContaining({ host: '127.0.0.1', port: after.port, token, id: 's1924comp01' }),
    ]);
    await waitFor(() => hub.lights()[0]?.reachable === true);
    expect(support.view().devices).toEqual([
      { address: `127.0.0.1:${after.port}`, name: 'Shapes Den', paired: true, id: 's1924comp01' },
    ]);
    hub.play('red');
    await waitFor(() => device.view().colorMode === 'effect');
  });

  test('an address the user types (--nanoleaf) is the user’s choice: the token is tried there', async () => {
    const before = await relay(device.port);
    const token = await pairFound(before.port);
    await before.close();
    await hub.close();
    const after = await relay(device.port);
    heard = [];
    start();
    await support.start([{ host: '127.0.0.1', port: after.port }], null);
    expect(store.get().nanoleafDevices).toEqual([expect.objectContaining({ port: after.port, token })]);
    await waitFor(() => hub.lights()[0]?.reachable === true);
  });

  test('a flood of announcements keeps at most NANOLEAF_MDNS_MAX_FOUND controllers on offer, newest kept', async () => {
    await support.start([], null);
    for (let round = 0; round < 3; round += 1) {
      heard = Array.from({ length: 50 }, (_, k) => announce(20_000 + round * 50 + k, `FF:00:${round}:${k}`));
      await support.discover();
    }
    const offered = support.view().devices;
    expect(offered).toHaveLength(NANOLEAF_MDNS_MAX_FOUND);
    expect(offered.at(-1)).toMatchObject({ address: '127.0.0.1:20149', paired: false });
  });
});
