import { afterEach, describe, expect, test } from 'vitest';
import { connected, negotiate, open, type Socket, until } from '../../test/f1live-socket.js';
import {
  CLOSE_MESSAGE_TOO_BIG,
  F1LIVE_MAX_BUFFERED_BYTES,
  F1LIVE_MAX_MESSAGE_BYTES,
} from './frame-limits.js';
import { RS } from './protocol.js';
import { type RunningF1LiveSim, startF1LiveSim } from './server.js';

const MiB = 1024 * 1024;
/** What one socket tries to make the server hold: far beyond any limit. */
const ATTACK_BYTES = 48 * MiB;
/** How much the process (simulator and attacking client together) may grow meanwhile. */
const RSS_GROWTH_LIMIT = 50 * MiB;
const NOT_CLOSED = -1;

let sim: RunningF1LiveSim | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function start(): Promise<RunningF1LiveSim> {
  sim = await startF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0 });
  return sim;
}

/** A socket past the handshake, as an attacker gets one: no sign-in needed. */
async function handshaken(s: RunningF1LiveSim): Promise<Socket> {
  const { token, cookie } = await negotiate(s);
  const socket = await open(s, token, { Cookie: cookie });
  socket.ws.send(`{"protocol":"json","version":1}${RS}`);
  await until(() => socket.messages.length > 0);
  return socket;
}

/**
 * Sends `total` bytes of text without a record separator in `chunk`-sized messages, one at a
 * time (the client holds one chunk, so growth is the server's), until the socket closes.
 * Resolves with the close code and the peak RSS growth seen meanwhile.
 */
async function flood(
  socket: Socket,
  total: number,
  chunk: number,
): Promise<{ code: number; growth: number }> {
  const payload = Buffer.alloc(chunk, 'x').toString('latin1');
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    for (let sent = 0; sent < total && socket.ws.readyState === socket.ws.OPEN; sent += chunk) {
      await new Promise<void>((resolve) => socket.ws.send(payload, () => resolve()));
    }
    // A server that kept everything would leave the socket open: give it a moment, then report.
    const code = await Promise.race([
      socket.closed,
      new Promise<number>((r) => setTimeout(() => r(NOT_CLOSED), 2000)),
    ]);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { code, growth: peak - baseline };
  } finally {
    clearInterval(sample);
  }
}

/** The other client still gets answers: a second Subscribe is completed with its snapshot. */
async function stillServed(socket: Socket): Promise<void> {
  socket.ws.send(
    JSON.stringify({ type: 1, invocationId: '1', target: 'Subscribe', arguments: [['SessionStatus']] }) + RS,
  );
  await until(() =>
    socket.frames().some((f) => (f as { invocationId?: string; type?: number }).invocationId === '1'),
  );
  expect(socket.ws.readyState).toBe(socket.ws.OPEN);
}

describe('text without a record separator', () => {
  test('48 MiB in 1 MiB messages: closed with 1009 at the first, the server stays small, another client goes on', async () => {
    const s = await start();
    const normal = await connected(s, ['TrackStatus']);
    const attacker = await handshaken(s);

    const { code, growth } = await flood(attacker, ATTACK_BYTES, MiB);

    expect(code).toBe(CLOSE_MESSAGE_TOO_BIG);
    expect(growth, `RSS grew ${(growth / MiB).toFixed(1)} MiB`).toBeLessThan(RSS_GROWTH_LIMIT);
    expect(s.control.state().counts['closed-too-big']).toBe(1);
    await stillServed(normal);
    expect(s.control.state().connections).toHaveLength(1);
    normal.ws.close();
  });

  test('48 MiB in 16 KiB messages: closed with 1009 once 64 KiB wait unterminated, the server stays small, another client goes on', async () => {
    const s = await start();
    const normal = await connected(s, ['TrackStatus']);
    const attacker = await handshaken(s);

    const { code, growth } = await flood(attacker, ATTACK_BYTES, 16 * 1024);

    expect(code).toBe(CLOSE_MESSAGE_TOO_BIG);
    expect(growth, `RSS grew ${(growth / MiB).toFixed(1)} MiB`).toBeLessThan(RSS_GROWTH_LIMIT);
    expect(s.control.state().counts['closed-too-big']).toBe(1);
    await stillServed(normal);
    normal.ws.close();
  });

  test('the unterminated text may reach the limit exactly; one byte more closes with 1009', async () => {
    const s = await start();
    const socket = await handshaken(s);
    const half = 'x'.repeat(F1LIVE_MAX_BUFFERED_BYTES / 2);
    socket.ws.send(half);
    socket.ws.send(half);
    // Exactly at the limit: held, still open.
    await new Promise((r) => setTimeout(r, 50));
    expect(s.control.state().connections).toHaveLength(1);
    socket.ws.send('x');
    expect(await socket.closed).toBe(CLOSE_MESSAGE_TOO_BIG);
  });

  test('one message over the size limit closes with 1009, even with separators in it', async () => {
    const s = await start();
    const socket = await handshaken(s);
    const ping = `{"type":6}${RS}`;
    socket.ws.send(ping.repeat(Math.ceil((F1LIVE_MAX_MESSAGE_BYTES + 1) / ping.length)));
    expect(await socket.closed).toBe(CLOSE_MESSAGE_TOO_BIG);
  });

  test('frames split across messages are still joined: a Subscribe in three pieces gets its snapshot', async () => {
    const s = await start();
    const socket = await handshaken(s);
    const subscribe =
      JSON.stringify({ type: 1, invocationId: '0', target: 'Subscribe', arguments: [['TrackStatus']] }) + RS;
    for (const piece of [subscribe.slice(0, 10), subscribe.slice(10, 30), subscribe.slice(30)]) {
      socket.ws.send(piece);
    }
    await until(() => socket.frames().some((f) => (f as { type?: number }).type === 3));
    socket.ws.close();
  });
});
