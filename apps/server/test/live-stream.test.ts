import net from 'node:net';
import { LIVE_STREAM_HEARTBEAT_MS, LIVE_STREAM_SILENCE_MS } from '@flaglight/contract/limits';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { MAX_BUFFERED_BYTES } from '../src/live/routes.js';
import { createFakeTimers, type FakeTimers } from './fake-timers.js';
import type { TestApp } from './helper.js';
import { buildLiveApp, readSse, signUp, type SseEvent } from './live-helpers.js';

const T0 = Date.parse('2026-09-06T13:00:00Z');

/** A made-up session: red and green flags a second apart, each with a 4 KB message. */
function floodMessages(count: number): unknown[] {
  const filler = 'X'.repeat(4_096);
  return Array.from({ length: count }, (_, i) => ({
    date: new Date(T0 + i * 1_000).toISOString(),
    category: 'Flag',
    flag: i % 2 === 0 ? 'RED' : 'GREEN',
    scope: 'Track',
    message: `${i % 2 === 0 ? 'RED FLAG' : 'GREEN LIGHT'} ${i} ${filler}`,
  }));
}

/** A raw HTTP client that reads the response head, then stops reading (a stalled tab). */
function stalledClient(
  origin: string,
  path: string,
): Promise<{ socket: net.Socket; closed: Promise<number> }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    let head = '';
    let bytes = 0;
    const closed = new Promise<number>((done) => socket.on('close', () => done(bytes)));
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      if (!head.startsWith('HTTP/1.1 200')) reject(new Error(head.split('\r\n')[0]));
      socket.pause(); // from now on nothing is read
      socket.off('data', onData);
      socket.on('data', (more: Buffer) => (bytes += more.length));
      resolve({ socket, closed });
    };
    socket.on('data', onData);
    socket.on('error', () => {});
  });
}

describe('a stream client that cannot keep up', () => {
  let fake: FakeTimers;
  let t: TestApp;
  let origin: string;
  let token: string;
  beforeAll(async () => {
    fake = createFakeTimers(T0);
    t = await buildLiveApp({ env: {}, timers: fake });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    token = await signUp(t);
  });
  afterAll(() => t.close());

  const ticket = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/live/ticket',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().ticket as string;

  test(
    'is dropped, not buffered without bound, while a reading client gets everything',
    { timeout: paced(60_000) },
    async () => {
      const count = 2_000;
      const sessionKey = t.context.live.hub.startReplay({
        messages: floodMessages(count),
        speed: 1,
        positionMs: 0,
        info: { test: true },
      });
      const subscribers = () =>
        t.context.live.hub.stats().find((s) => s.sessionKey === sessionKey)?.subscribers ?? 0;

      const controller = new AbortController();
      const res = await fetch(`${origin}/api/live/events?ticket=${await ticket()}&sessionKey=${sessionKey}`, {
        signal: controller.signal,
      });
      const reading: SseEvent[] = [];
      readSse(res.body!, (e) => reading.push(e));
      const stalled = await stalledClient(
        origin,
        `/api/live/events?ticket=${await ticket()}&sessionKey=${sessionKey}`,
      );
      await vi.waitFor(() => expect(subscribers()).toBe(2));

      // One message a second: the reading client keeps up, the stalled one's buffers fill.
      let droppedAfter: number | null = null;
      for (let i = 1; i < count; i += 1) {
        await fake.advance(1_000);
        await new Promise((r) => setImmediate(r));
        if (droppedAfter === null && subscribers() < 2) droppedAfter = i;
      }
      await vi.waitFor(() => expect(reading.filter((e) => e.event === 'flag').length).toBe(count));
      expect(droppedAfter).not.toBeNull();
      expect(subscribers()).toBe(1);
      // Dropped once the socket's own buffers and MAX_BUFFERED_BYTES were full, long before the end.
      expect(droppedAfter!).toBeLessThan(count * 0.9);

      // Reading again, the stalled client finds its stream ended after a bounded amount.
      stalled.socket.resume();
      const received = await stalled.closed;
      const published = reading
        .filter((e) => e.event === 'flag')
        .reduce((sum, e) => sum + (e.data?.length ?? 0), 0);
      expect(received).toBeLessThan(published / 2);
      expect(MAX_BUFFERED_BYTES).toBeLessThanOrEqual(64 * 1024);
      controller.abort();
    },
  );
});

describe("a page's stream on a quiet race", () => {
  let fake: FakeTimers;
  let t: TestApp;
  let origin: string;
  let token: string;
  beforeAll(async () => {
    fake = createFakeTimers(T0);
    t = await buildLiveApp({ env: {}, timers: fake });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    token = await signUp(t);
  });
  afterAll(() => t.close());

  test('carries a heartbeat event (an EventSource sees events, never comments) well within the silence a page allows', async () => {
    expect(2 * LIVE_STREAM_HEARTBEAT_MS).toBeLessThan(LIVE_STREAM_SILENCE_MS);
    const sessionKey = t.context.live.hub.startReplay({
      messages: floodMessages(1),
      speed: 1,
      positionMs: 0,
      info: { test: true },
    });
    const ticket = (
      await t.app.inject({
        method: 'POST',
        url: '/api/live/ticket',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().ticket as string;
    const controller = new AbortController();
    const res = await fetch(`${origin}/api/live/events?ticket=${ticket}&sessionKey=${sessionKey}`, {
      signal: controller.signal,
    });
    const events: SseEvent[] = [];
    readSse(res.body!, (e) => events.push(e));
    await vi.waitFor(() => expect(events.some((e) => e.event === 'flag')).toBe(true));
    const heartbeats = () => events.filter((e) => e.event === 'heartbeat').length;
    expect(heartbeats()).toBe(0);

    // Nothing happens in the race: the stream still says something every LIVE_STREAM_HEARTBEAT_MS.
    for (let beat = 1; beat <= 3; beat += 1) {
      await fake.advance(LIVE_STREAM_HEARTBEAT_MS);
      await vi.waitFor(() => expect(heartbeats()).toBe(beat));
    }
    expect(events.filter((e) => e.event === 'heartbeat').every((e) => e.data === '{}')).toBe(true);
    controller.abort();
  });
});
