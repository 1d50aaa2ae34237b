import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, test } from 'vitest';
import { LightError } from '../errors.js';
import { LAN_ANSWER_MAX_BYTES, LanAnswerTooLargeError, LanHttpError, lanHttpRequest } from './http-limits.js';
import { fetchHueBridgeConfig } from './hue/bridge.js';
import { hueHttpsRequest, PinnedBridgeAgent } from './hue/https.js';
import { fetchNanoleafInfo, pairNanoleaf } from './nanoleaf/pairing.js';

// Devices that answer without end, or not at all, over real HTTP(S) on 127.0.0.1. The endless
// answer is written lazily, one reused 64 KiB chunk at a time, and stops when the client hangs up.

const ENDLESS_BYTES = 600 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

async function serve(handler: Handler, tls?: { key: string; cert: string }) {
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { port, url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}` };
}

/** Answers 200 with a JSON string that never ends (up to 600 MB); `written()` counts what went out. */
function endless(options: { declare?: boolean } = {}) {
  let written = 0;
  const handler: Handler = (request, response) => {
    request.resume();
    response.writeHead(200, {
      'content-type': 'application/json',
      ...(options.declare ? { 'content-length': String(ENDLESS_BYTES) } : {}),
    });
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
  return { handler, written: () => written };
}

/** Never answers: the request is held open (the headers never come). */
const silent: Handler = (request) => void request.resume();

/** Sends its headers, then one byte every 50 ms. */
const drip: Handler = (request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => response.write(' '), 50);
  response.on('close', () => clearInterval(timer));
};

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('reading a LAN device with limits', () => {
  test('an endless answer is cut just past 1 MiB with "answer too large"; the rest is never read', async () => {
    const device = endless();
    const { url } = await serve(device.handler);
    const started = Date.now();
    const error = await caught(lanHttpRequest(`${url}/api/v1/new`, { method: 'POST', timeoutMs: 5_000 }));
    expect(error).toBeInstanceOf(LanHttpError);
    expect(error).toMatchObject({ reason: 'too-large', message: 'answer too large' });
    expect(Date.now() - started).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 50));
    // The socket buffers on both sides hold a few MB at most: far from the 600 MB on offer.
    expect(device.written()).toBeLessThan(16 * 1024 * 1024);
  });

  test('an answer that declares more than 1 MiB is refused before its body is read', async () => {
    const { url } = await serve(endless({ declare: true }).handler);
    await expect(lanHttpRequest(url, { method: 'GET', timeoutMs: 5_000 })).rejects.toMatchObject({
      reason: 'too-large',
    });
  });

  test('exactly 1 MiB is still an answer', async () => {
    const body = `"${'a'.repeat(LAN_ANSWER_MAX_BYTES - 2)}"`;
    const { url } = await serve((request, response) => {
      request.resume();
      response.writeHead(200).end(body);
    });
    const answer = await lanHttpRequest(url, { method: 'GET', timeoutMs: 5_000 });
    expect(answer).toMatchObject({ status: 200 });
    expect(answer.text).toHaveLength(LAN_ANSWER_MAX_BYTES);
  });

  test('no headers, or a body that drips on, time out within the one deadline', async () => {
    for (const handler of [silent, drip]) {
      const { url } = await serve(handler);
      const started = Date.now();
      await expect(lanHttpRequest(url, { method: 'GET', timeoutMs: 300 })).rejects.toMatchObject({
        reason: 'timeout',
      });
      expect(Date.now() - started).toBeLessThan(1_000);
    }
  });
});

describe('the Nanoleaf and Hue clients read through these limits', () => {
  test('Nanoleaf pairing with an endless answer fails at once with "answer too large"', async () => {
    const { port } = await serve(endless().handler);
    const address = { host: '127.0.0.1', port };
    const error = await caught(pairNanoleaf(address, { pollMs: 20, timeoutMs: 10_000 }));
    expect(error).toBeInstanceOf(LanAnswerTooLargeError);
    expect(error).toMatchObject({ kind: 'server', message: expect.stringMatching(/answer too large/) });
    await expect(fetchNanoleafInfo(address, 'a'.repeat(32))).rejects.toThrow(/answer too large/);
  });

  test('Nanoleaf pairing with a device that never answers ends at its own deadline, saying so', async () => {
    const { port } = await serve(silent);
    const started = Date.now();
    const error = await caught(pairNanoleaf({ host: '127.0.0.1', port }, { pollMs: 20, timeoutMs: 400 }));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error).toBeInstanceOf(LightError);
    expect(error).toMatchObject({
      kind: 'timeout',
      message: 'The Nanoleaf controller did not answer in time',
    });
  });

  test('a Hue bridge (HTTPS) with an endless answer: "answer too large"; one that never answers: time-out', async () => {
    const id = '001788fffe000001';
    const pems = await generate([{ name: 'commonName', value: id }], { keyType: 'ec', curve: 'P-256' });
    const tls = { key: pems.private, cert: pems.cert };
    const endlessBridge = await serve(endless().handler, tls);
    await expect(fetchHueBridgeConfig(endlessBridge.url)).rejects.toBeInstanceOf(LanAnswerTooLargeError);
    const agent = new PinnedBridgeAgent({ bridgeId: id }, 1);
    closers.push(async () => agent.destroy());
    await expect(
      hueHttpsRequest(agent, `${endlessBridge.url}/clip/v2/resource/light`, {
        method: 'GET',
        fallback: 'Failed to fetch lights',
      }),
    ).rejects.toThrow(/The Hue bridge sent an answer too large/);
    const silentBridge = await serve(silent, tls);
    await expect(
      hueHttpsRequest(agent, `${silentBridge.url}/clip/v2/resource/light`, {
        method: 'GET',
        timeoutMs: 300,
        fallback: 'Failed to fetch lights',
      }),
    ).rejects.toMatchObject({ kind: 'timeout', message: 'Failed to fetch lights' });
  });
});
