import {
  DEVICE_MAX_LINKED_PER_ACCOUNT,
  MAX_STREAMS_PER_USER,
  STREAM_TICKETS_PER_MINUTE,
} from '@flaglight/contract';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { FULL_RETRY_AFTER_S } from '../src/live/routes.js';
import { buildTestApp, type TestApp } from './helper.js';
import { readSse, signUp, startReplay } from './live-helpers.js';

/** The attack: one account held 19,462 streams open and the health check failed for everyone. */

interface Stream {
  status: number;
  headers: Headers;
  body: { error?: string; code?: string } | null;
  close(): void;
}

/** Opens the event stream as a browser's EventSource would, over real HTTP, and keeps reading it. */
async function openStream(origin: string, ticket: string, sessionKey: number): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${origin}/api/live/events?ticket=${ticket}&sessionKey=${sessionKey}`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (res.status !== 200) {
    return {
      status: res.status,
      headers: res.headers,
      body: (await res.json()) as Stream['body'],
      close() {},
    };
  }
  readSse(res.body!, () => {});
  return { status: 200, headers: res.headers, body: null, close: () => controller.abort() };
}

async function askTicket(origin: string, token: string, sessionKey?: number) {
  const query = sessionKey === undefined ? '' : `?sessionKey=${sessionKey}`;
  const res = await fetch(`${origin}/api/live/ticket${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: res.status,
    body: (await res.json()) as { ticket?: string; error?: string; code?: string },
  };
}

async function ticketOf(origin: string, token: string): Promise<string> {
  const { status, body } = await askTicket(origin, token);
  if (status !== 200 || !body.ticket) throw new Error(`ticket refused: ${status} ${JSON.stringify(body)}`);
  return body.ticket;
}

describe('streams per account', () => {
  let t: TestApp;
  let origin: string;
  let sessionKey: number;
  const open: Stream[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    sessionKey = startReplay(t);
  });
  afterEach(() => {
    for (const stream of open.splice(0)) stream.close();
  });
  afterAll(() => t.close());

  const subscribers = () =>
    t.context.live.hub.stats().find((s) => s.sessionKey === sessionKey)?.subscribers ?? 0;

  test("one stream past the account's cap gets 429 with the number open; closing one frees its place at once", async () => {
    // Every companion an account may link, and ten pages beside them.
    expect(MAX_STREAMS_PER_USER).toBe(DEVICE_MAX_LINKED_PER_ACCOUNT + 10);
    const N = MAX_STREAMS_PER_USER;
    const token = await signUp(t);
    // Tickets asked for before any stream is open: the cap holds at stream open too, not only at issue.
    const tickets = await Promise.all(Array.from({ length: N + 2 }, () => ticketOf(origin, token)));
    for (const ticket of tickets.slice(0, N)) {
      const stream = await openStream(origin, ticket, sessionKey);
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    await vi.waitFor(() => expect(subscribers()).toBe(N));

    const eleventh = await openStream(origin, tickets[N]!, sessionKey);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({
      error: `You already have ${N} live streams open. Close one (another tab or device) and try again.`,
      code: 'rate_limited',
    });
    // A browser's EventSource never sees a status: the ticket carries the reason.
    const refused = await askTicket(origin, token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(eleventh.body);

    // Another account behind the same address is not affected (no per-address cap).
    const neighbour = await openStream(origin, await ticketOf(origin, await signUp(t)), sessionKey);
    expect(neighbour.status).toBe(200);
    open.push(neighbour);

    // The client closes one stream (a tab closed): the server's close handler gives the place back.
    open.shift()!.close();
    await vi.waitFor(() => expect(subscribers()).toBe(N));
    const next = await openStream(origin, tickets[N + 1]!, sessionKey);
    expect(next.status).toBe(200);
    open.push(next);
    expect(t.context.live.limits.total()).toBe(N + 1);
  });

  test(`stream tickets are limited to ${STREAM_TICKETS_PER_MINUTE} a minute per account, whatever the address`, async () => {
    const spammer = await signUp(t);
    const answers = [];
    for (let i = 0; i < STREAM_TICKETS_PER_MINUTE + 5; i += 1)
      answers.push((await askTicket(origin, spammer)).status);
    expect(answers.filter((s) => s === 200)).toHaveLength(STREAM_TICKETS_PER_MINUTE);
    expect(answers.slice(STREAM_TICKETS_PER_MINUTE)).toEqual(Array(5).fill(429));
    const limited = await askTicket(origin, spammer);
    expect(limited.body.code).toBe('rate_limited');
    // The same address, another account: its own budget.
    expect((await askTicket(origin, await signUp(t))).status).toBe(200);
  });
});

describe('streams per instance (MAX_STREAMS)', () => {
  let t: TestApp;
  let origin: string;
  let sessionKey: number;
  const open: Stream[] = [];
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', MAX_STREAMS: '3' } });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    sessionKey = startReplay(t);
  });
  afterAll(async () => {
    for (const stream of open.splice(0)) stream.close();
    await t.close();
  });

  test('a full instance answers 503 with Retry-After, health still answers, and a closed stream makes room', async () => {
    for (let i = 0; i < 3; i += 1) {
      const stream = await openStream(origin, await ticketOf(origin, await signUp(t)), sessionKey);
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    const full = await openStream(origin, await ticketOf(origin, await signUp(t)), sessionKey);
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe(String(FULL_RETRY_AFTER_S));
    expect(full.body).toEqual({
      error: 'This server is at its limit of live streams. Please try again in a moment.',
      code: 'service_unavailable',
    });

    const health = await fetch(`${origin}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });

    open.shift()!.close();
    await vi.waitFor(() => expect(t.context.live.limits.total()).toBe(2));
    const again = await openStream(origin, await ticketOf(origin, await signUp(t)), sessionKey);
    expect(again.status).toBe(200);
    open.push(again);
  });
});
