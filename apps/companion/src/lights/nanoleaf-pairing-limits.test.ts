import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startNanoleafSim, type NanoleafSimDevice } from '@flaglight/sims';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { startLocalBridge, type LocalBridge } from '../bridge/local-bridge.js';
import { createLogger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';
import { createNanoleafSupport, type NanoleafSupport } from './nanoleaf-support.js';

// A fake Nanoleaf that answers pairing without end, or never, must neither grow the companion
// nor hold the one pairing slot. Real HTTP on 127.0.0.1 through the local bridge's route.

const APP = 'http://localhost:3000';
const ENDLESS_BYTES = 600 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
const MB = 1024 * 1024;
const closers: (() => Promise<void>)[] = [];
let device: NanoleafSimDevice;
let dir: string;
let store: StateFile;
let hub: LightsHub;
let support: NanoleafSupport;
let bridge: LocalBridge;

beforeEach(async () => {
  device = await startNanoleafSim({ name: 'Shapes Den', serialNo: 'S1924COMP01', panelCount: 4 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-nanoleaf-limits-'));
  store = new StateFile(dir);
  store.load();
  hub = createLightsHub({ log: createLogger({ console: false }) });
  support = createNanoleafSupport({
    hub,
    log: createLogger({ console: false }),
    store,
    mdns: false,
    // Short, for the test, and stretched as a ceiling is: on a loaded host a pairing ran out before
    // the second one, 100 ms later, found the slot taken.
    pairingTimeoutMs: paced(400),
    pollMs: 25,
  });
  bridge = await startLocalBridge({
    port: 0,
    appOrigins: [APP],
    actions: {
      status: () => ({ version: '0.1.0', platform: process.platform, linked: true }),
      test: () => true,
      setPaused: () => undefined,
      rescan: async () => undefined,
      pairHue: async () => ({ ok: false, error: 'no' }),
      pairNanoleaf: (address) => support.pair(address),
      forgetNanoleaf: (id) => support.forget(id),
      unlink: async () => undefined,
    },
  });
});
afterEach(async () => {
  await bridge.close();
  await support.close();
  await hub.close();
  for (const close of closers.splice(0)) await close();
  await device.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function fake(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Answers `POST /api/v1/new` with a token that never ends: lazily, until the client hangs up. */
const endless: http.RequestListener = (request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json' });
  let written = 0;
  let gone = false;
  response.on('close', () => (gone = true));
  const pump = () => {
    while (!gone && written < ENDLESS_BYTES) {
      written += CHUNK.length;
      if (!response.write(CHUNK)) return void response.once('drain', pump);
    }
    if (!gone) response.end();
  };
  response.write('{"auth_token":"');
  pump();
};

const pair = (address: string) =>
  fetch(`${bridge.url}api/nanoleaf/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: APP },
    body: JSON.stringify({ address }),
  });
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

describe('Nanoleaf pairing against a device that misbehaves', () => {
  test('an endless pairing answer fails at once with "answer too large", memory stays flat, the next pairing is accepted', async () => {
    const stranger = await fake(endless);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const started = Date.now();
    const failed = await pair(stranger);
    const elapsed = Date.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(failed.status).toBe(409);
    expect(await errorOf(failed)).toMatch(/answer too large/);
    expect(elapsed).toBeLessThan(2_000);
    expect(peak - before).toBeLessThan(50 * MB);

    device.holdButton();
    const next = await pair(`127.0.0.1:${device.port}`);
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ success: true, name: 'Shapes Den' });
  });

  test('a device that never answers: the pairing times out, saying so, and frees the slot', async () => {
    const stranger = await fake((request) => void request.resume());
    const waiting = pair(stranger);
    // While it waits, the one slot is taken.
    await new Promise((r) => setTimeout(r, 100));
    const busy = await pair(`127.0.0.1:${device.port}`);
    expect(busy.status).toBe(409);
    expect(await errorOf(busy)).toMatch(/already waiting/);

    const timedOut = await waiting;
    expect(timedOut.status).toBe(409);
    expect(await errorOf(timedOut)).toBe('The Nanoleaf controller did not answer in time');
    expect(support.view().pairing).toBe('The Nanoleaf controller did not answer in time');

    device.holdButton();
    const next = await pair(`127.0.0.1:${device.port}`);
    expect(next.status).toBe(200);
  });
});
