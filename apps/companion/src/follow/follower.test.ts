import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FlagEventData } from '@flaglight/core';
import { afterEach, describe, expect, test } from 'vitest';
import { paced, pollUntil } from '../../../../scripts/test-pace.mjs';
import { createServerApi } from '../link/server-api.js';
import { startFollower, type DeliveredFlag, type Follower, type FollowerStatus } from './follower.js';

/**
 * The follower against a stand-in for the Flaglight server's three live routes, over real HTTP, so
 * that restarts, silences and refusals can be staged exactly (the real server's journey is in e2e).
 */
interface Stage {
  sessionKey: number | null;
  events: { id: number; data: FlagEventData }[];
  tokenValid: boolean;
  /** Streams stay open but say nothing (a dead proxy). */
  silent: boolean;
  /** Stream requests are cut before any answer (a proxy that blocks event streams). */
  breakStreams: boolean;
  /** Tickets are refused as for an ended trial. */
  trialEnded: boolean;
  lastEventIds: (string | undefined)[];
  tickets: number;
  open: Set<http.ServerResponse>;
}

function flag(
  sessionKey: number,
  state: FlagEventData['state'],
  message: string,
  emittedAt = new Date().toISOString(),
): FlagEventData {
  return { sessionKey, state, activeSectors: [], cause: { date: emittedAt, message }, emittedAt };
}

async function startStandIn(port = 0) {
  const stage: Stage = {
    sessionKey: 100,
    events: [],
    tokenValid: true,
    silent: false,
    breakStreams: false,
    trialEnded: false,
    lastEventIds: [],
    tickets: 0,
    open: new Set(),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/live/ticket') {
      if (!stage.tokenValid)
        return json(401, { error: 'This companion was unlinked from its account.', code: 'unauthenticated' });
      stage.tickets += 1;
      if (stage.trialEnded) return json(403, { error: 'Your free trial has ended.', code: 'trial_expired' });
      return json(200, { success: true, ticket: `t${stage.tickets}`, expiresAt: new Date().toISOString() });
    }
    if (url.pathname === '/api/live/state') {
      if (stage.sessionKey === null) return json(404, { error: 'No live session found', code: 'not_found' });
      const last = stage.events.filter((e) => e.data.sessionKey === stage.sessionKey).at(-1);
      return json(200, {
        success: true,
        sessionKey: stage.sessionKey,
        id: last?.id ?? null,
        flag: last?.data ?? null,
        upstream: null,
      });
    }
    if (url.pathname === '/api/live/events') {
      if (stage.breakStreams) return void req.socket.destroy();
      if (stage.sessionKey === null) return json(404, { error: 'No live session found', code: 'not_found' });
      stage.lastEventIds.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      const since = Number(req.headers['last-event-id'] ?? 0);
      const backlog = stage.events.filter((e) => e.data.sessionKey === stage.sessionKey && e.id > since);
      if (!stage.silent) {
        res.write(
          backlog.map((e) => `id: ${e.id}\nevent: flag\ndata: ${JSON.stringify(e.data)}\n\n`).join(''),
        );
      }
      stage.open.add(res);
      res.on('close', () => stage.open.delete(res));
      return undefined;
    }
    return json(404, { error: 'Not found', code: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    stage,
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    push(event: { id: number; data: FlagEventData }) {
      stage.events.push(event);
      if (stage.silent) return;
      for (const res of stage.open)
        res.write(`id: ${event.id}\nevent: flag\ndata: ${JSON.stringify(event.data)}\n\n`);
    },
    send(text: string) {
      for (const res of stage.open) res.write(text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type StandIn = Awaited<ReturnType<typeof startStandIn>>;

const running: { follower?: Follower; servers: StandIn[] } = { servers: [] };
afterEach(async () => {
  await running.follower?.stop();
  running.follower = undefined;
  for (const server of running.servers.splice(0)) await server.close();
});

function follow(url: string, overrides: Partial<Parameters<typeof startFollower>[0]> = {}) {
  const flags: DeliveredFlag[][] = [];
  const statuses: FollowerStatus[] = [];
  const unlinked: string[] = [];
  const tests: string[] = [];
  running.follower = startFollower({
    api: createServerApi(url),
    token: 'device-token',
    retryBaseMs: 50,
    retryMaxMs: 200,
    idleCheckMs: 100,
    handlers: {
      onFlags: (batch) => flags.push(batch),
      onPreferences: () => undefined,
      onTest: (state) => tests.push(state),
      onUnlinked: (message) => unlinked.push(message),
      onStatus: (status) => statuses.push(status),
    },
    ...overrides,
  });
  return { flags, statuses, unlinked, tests, follower: running.follower };
}

const until = (check: () => boolean, ms = 5_000) => pollUntil(check, ms);
const states = (flags: DeliveredFlag[][]) => flags.flat().map((f) => f.data.state);

describe('the follower', () => {
  test('delivers the current flag on connect, then each new one, and says it follows', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.events.push({ id: 1, data: flag(100, 'yellow', 'YELLOW IN SECTOR 3') });
    const seen = follow(server.url);
    await until(() => seen.flags.length === 1);
    expect(seen.follower.status()).toMatchObject({ state: 'following', sessionKey: 100 });
    server.push({ id: 2, data: flag(100, 'red', 'RED FLAG') });
    await until(() => states(seen.flags).length === 2);
    expect(states(seen.flags)).toEqual(['yellow', 'red']);
  });

  test('after a server restart it resumes from its last id and misses nothing still current', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.events.push({ id: 1, data: flag(100, 'yellow', 'YELLOW') });
    const seen = follow(server.url);
    await until(() => seen.flags.length === 1);
    const port = server.port;
    const events = server.stage.events;
    await server.close();
    running.servers.pop();
    // While the server is down the race goes on: a red flag, then green.
    events.push(
      { id: 2, data: flag(100, 'red', 'RED FLAG') },
      { id: 3, data: flag(100, 'green', 'TRACK CLEAR') },
    );
    await until(() => seen.follower.status().state === 'reconnecting');
    const again = await startStandIn(port);
    running.servers.push(again);
    again.stage.events.push(...events);
    await until(() => states(seen.flags).length === 3);
    expect(again.stage.lastEventIds).toEqual(['1']);
    // The backlog comes as one batch, so the companion can play only the newest.
    expect(seen.flags.at(-1)?.map((f) => f.data.state)).toEqual(['red', 'green']);
  });

  test(
    'while polling, a server that stops answering is reported as reconnecting, then polling again',
    { timeout: paced(30_000) },
    async () => {
      const server = await startStandIn();
      running.servers.push(server);
      server.stage.breakStreams = true;
      server.stage.events.push({ id: 1, data: flag(100, 'yellow', 'YELLOW') });
      const seen = follow(server.url);
      await until(() => seen.follower.status().state === 'polling');
      await until(() => seen.flags.length >= 1);
      const port = server.port;
      await server.close();
      running.servers.pop();
      await until(() => seen.follower.status().state === 'reconnecting', 10_000);
      const again = await startStandIn(port);
      running.servers.push(again);
      again.stage.breakStreams = true;
      await until(() => seen.follower.status().state === 'polling', 10_000);
    },
  );

  test('a stream that goes silent is dropped by the watchdog and reopened', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    const seen = follow(server.url, { watchdogMs: 300 });
    await until(() => server.stage.tickets === 1 && server.stage.open.size === 1);
    await until(() => server.stage.tickets >= 2, 5_000);
    server.push({ id: 1, data: flag(100, 'red', 'RED FLAG') });
    await until(() => states(seen.flags).includes('red'));
  });

  test('after the computer slept it reconnects at once, and the current flag comes again', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.events.push({ id: 1, data: flag(100, 'yellow', 'YELLOW') });
    let slept = 0;
    const seen = follow(server.url, { now: () => Date.now() + slept, tickMs: 50, sleepGapMs: 10_000 });
    await until(() => server.stage.tickets === 1 && server.stage.open.size === 1);
    // While it slept the race went red; its old connection looks alive but is not.
    server.stage.events.push({ id: 2, data: flag(100, 'red', 'RED FLAG') });
    slept = 60_000;
    await until(() => server.stage.tickets === 2);
    await until(() => states(seen.flags).includes('red'));
    expect(server.stage.lastEventIds).toEqual([undefined, '1']);
  });

  test('with no live session it waits, then follows the session that goes live', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.sessionKey = null;
    const seen = follow(server.url);
    await until(() => seen.follower.status().state === 'waiting');
    server.stage.sessionKey = 200;
    server.stage.events.push({ id: 5, data: flag(200, 'green', 'GREEN LIGHT - PIT EXIT OPEN') });
    await until(() => seen.follower.status().state === 'following');
    expect(states(seen.flags)).toContain('green');
    expect(seen.follower.status().sessionKey).toBe(200);
  });

  test('when the next session goes live it moves there, its ids counted afresh', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.events.push({ id: 40, data: flag(100, 'checkered', 'CHEQUERED FLAG') });
    const seen = follow(server.url, { sessionCheckMs: 100 });
    await until(() => seen.flags.length === 1);
    server.stage.sessionKey = 101;
    server.stage.events.push({ id: 1, data: flag(101, 'green', 'GREEN LIGHT - PIT EXIT OPEN') });
    await until(() => states(seen.flags).includes('green'));
    expect(seen.follower.status().sessionKey).toBe(101);
  });

  test('an unlinked token ends following and says so; it does not retry', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.tokenValid = false;
    const seen = follow(server.url);
    await until(() => seen.unlinked.length === 1);
    expect(seen.unlinked[0]).toMatch(/unlinked/);
    expect(seen.follower.status().state).toBe('unlinked');
    const tickets = server.stage.tickets;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.stage.tickets).toBe(tickets);
  });

  test('the unlinked event on an open stream ends it at once; a test event is passed on', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    const seen = follow(server.url);
    await until(() => server.stage.open.size === 1);
    server.send(`event: test\ndata: ${JSON.stringify({ state: 'yellow' })}\n\n`);
    await until(() => seen.tests.length === 1);
    server.send(
      `event: unlinked\ndata: ${JSON.stringify({ error: 'This companion was unlinked from its account.' })}\n\n`,
    );
    await until(() => seen.unlinked.length === 1);
    expect(seen.tests).toEqual(['yellow']);
  });

  test('garbage on the stream is ignored', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    const seen = follow(server.url);
    await until(() => server.stage.open.size === 1);
    server.send('id: x\nevent: flag\ndata: {not json\n\nevent: flag\ndata: {"state":"red"}\n\n');
    server.push({ id: 3, data: flag(100, 'red', 'RED FLAG') });
    await until(() => seen.flags.length === 1);
    expect(states(seen.flags)).toEqual(['red']);
  });

  test('refused by an ended trial, it asks again soon, so a fan who pays sees the lights follow within the minute; later less often', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.trialEnded = true;
    server.push({ id: 1, data: flag(100, 'green', 'TRACK CLEAR') });
    const seen = follow(server.url, {
      refusalRetryMs: 150,
      refusalFastForMs: 1_000,
      refusalSlowRetryMs: 60_000,
    });
    await expect.poll(() => seen.statuses.at(-1)?.state).toBe('refused');
    expect(seen.statuses.at(-1)?.message).toBe('Your free trial has ended.');
    // Asked again at the short pace while the refusal is new…
    await expect.poll(() => server.stage.tickets, { timeout: 3_000 }).toBeGreaterThanOrEqual(4);
    // …and far less often once it is old: no ticket for a while.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const asked = server.stage.tickets;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.stage.tickets).toBe(asked);
    expect(seen.flags).toHaveLength(0);
  });

  test('an upgrade during the refusal: the next ask follows the race', async () => {
    const server = await startStandIn();
    running.servers.push(server);
    server.stage.trialEnded = true;
    server.push({ id: 1, data: flag(100, 'yellow', 'YELLOW IN TRACK SECTOR 4') });
    const seen = follow(server.url, { refusalRetryMs: 200 });
    await expect.poll(() => seen.statuses.at(-1)?.state).toBe('refused');
    server.stage.trialEnded = false;
    await expect.poll(() => seen.statuses.at(-1)?.state, { timeout: 2_000 }).toBe('following');
    await expect.poll(() => seen.flags.flat().map((f) => f.data.state)).toEqual(['yellow']);
  });
});
