import {
  DEVICE_APPROVALS_PER_MINUTE,
  DEVICE_CODES_PER_MINUTE,
  DEVICE_MAX_LINKED_PER_ACCOUNT,
  USER_CODE_ALPHABET,
} from '@flaglight/contract';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createDevicesRepository } from '../src/devices/repository.js';
import { DEVICE_STREAM_HEARTBEAT_MS } from '../src/live/routes.js';
import { decide, linkDevice, pollToken, requestCode } from './device-helpers.js';
import { createFakeTimers } from './fake-timers.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';
import { buildLiveApp, readSse, signUp, type SseEvent, startReplay } from './live-helpers.js';

const MINUTE = 60_000;

// One app per dialect, shared by every theme below and run in order.
let t: TestApp;
let origin: string;
let sessionKey: number;
// The app's clock: tests move it forward to expire codes.
let offset = 0;

function useDevicesApp(dialect: (typeof dialects)[number]) {
  beforeAll(async () => {
    offset = 0;
    t = await buildTestApp({
      dialect,
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
      now: () => new Date(Date.now() + offset),
    });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    sessionKey = startReplay(t);
  });
  afterAll(() => t.close());
}

const http = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
  const res = await fetch(`${origin}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Opens the event stream with a device or session token, as the companion will, over real HTTP. */
async function openStream(token: string) {
  const ticket = await http('/api/live/ticket', { method: 'POST', token });
  expect(ticket.status).toBe(200);
  const controller = new AbortController();
  const res = await fetch(
    `${origin}/api/live/events?ticket=${String(ticket.body.ticket)}&sessionKey=${sessionKey}`,
    {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    },
  );
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  let ended = false;
  const reading = readSse(res.body!, (event) => events.push(event));
  void reading.done.then(() => {
    ended = true;
  });
  return { events, ended: () => ended, close: () => controller.abort() };
}

function linkingTests() {
  test('a companion links over real HTTP: code, pending, approve, token, ticket, and its stream opens', async () => {
    const session = await signUp(t);
    const issued = await http('/api/device/code', {
      method: 'POST',
      body: { name: 'Living-room PC', platform: 'win32-x64', version: '1.2.3' },
    });
    expect(issued.status).toBe(200);
    const userCode = String(issued.body.user_code);
    const letters = `[${USER_CODE_ALPHABET}]{4}`;
    expect(userCode).toMatch(new RegExp(`^${letters}-${letters}$`));
    expect(issued.body).toMatchObject({
      verification_uri: `${t.config.publicUrl}/#/link`,
      verification_uri_complete: `${t.config.publicUrl}/#/link?code=${userCode}`,
      expires_in: 600,
      interval: 5,
    });
    expect(String(issued.body.device_code).length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const deviceCode = String(issued.body.device_code);
    const poll = () =>
      http('/api/device/token', {
        method: 'POST',
        body: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode },
      });

    const waiting = await poll();
    expect(waiting.status).toBe(400);
    expect(waiting.body).toMatchObject({ error: 'authorization_pending', code: 'authorization_pending' });
    expect(waiting.body.error_description).toEqual(expect.any(String));

    // Typed by hand: lower case, no dash.
    const typed = userCode.replace('-', '').toLowerCase();
    const pending = await http(`/api/device/pending?code=${typed}`, { token: session });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({
      name: 'Living-room PC',
      platform: 'win32-x64',
      version: '1.2.3',
      userCode,
    });
    expect(
      (await http('/api/device/approve', { method: 'POST', token: session, body: { code: typed } })).status,
    ).toBe(200);

    offset += 5_000;
    const granted = await poll();
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ token_type: 'Bearer', device: { name: 'Living-room PC' } });
    const deviceToken = String(granted.body.access_token);
    const deviceId = String((granted.body.device as { id: string }).id);

    // The token is issued once.
    offset += 5_000;
    const again = await poll();
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_grant', code: 'invalid_grant' });
    // Stored hashed: the token itself is nowhere in the table.
    const row = await t.context.db
      .selectFrom('devices')
      .selectAll()
      .where('id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(deviceToken);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const state = await http(`/api/live/state?sessionKey=${sessionKey}`, { token: deviceToken });
    expect(state.status).toBe(200);
    const stream = await openStream(deviceToken);
    await vi.waitFor(() => expect(stream.events.some((e) => e.event === 'status')).toBe(true));
    // The device's stream counts for its account.
    const me = await http('/api/auth/me', { token: session });
    expect(t.context.live.limits.openFor(String((me.body.user as { id: string }).id))).toBe(1);

    const listed = await http('/api/devices', { token: session });
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: deviceId,
        name: 'Living-room PC',
        platform: 'win32-x64',
        version: '1.2.3',
        online: true,
      }),
    ]);
    stream.close();
    await vi.waitFor(async () => {
      const after = await http('/api/devices', { token: session });
      expect((after.body as unknown as Array<{ online: boolean }>)[0]?.online).toBe(false);
    });
  });

  test('polling faster than the interval gets slow_down; waiting the interval gets authorization_pending', async () => {
    const code = await requestCode(t);
    expect((await pollToken(t, code.device_code)).json()).toMatchObject({ code: 'authorization_pending' });
    const fast = await pollToken(t, code.device_code);
    expect(fast.statusCode).toBe(400);
    expect(fast.json()).toMatchObject({ error: 'slow_down', code: 'slow_down' });
    offset += 5_000;
    expect((await pollToken(t, code.device_code)).json()).toMatchObject({ code: 'authorization_pending' });
  });

  test('a code expires after 10 minutes: the poll gets expired_token and the code can no longer be approved', async () => {
    const session = await signUp(t);
    const code = await requestCode(t);
    offset += 10 * MINUTE;
    const poll = await pollToken(t, code.device_code);
    expect(poll.statusCode).toBe(400);
    expect(poll.json()).toMatchObject({ error: 'expired_token', code: 'expired_token' });
    const pending = await t.app.inject({
      method: 'GET',
      url: `/api/device/pending?code=${code.user_code}`,
      headers: { authorization: `Bearer ${session}` },
    });
    expect(pending.statusCode).toBe(404);
    expect(pending.json()).toMatchObject({ code: 'expired_token' });
    expect((await decide(t, session, code.user_code, 'approve')).statusCode).toBe(404);
  });

  test('a denied code gets access_denied, and cannot be approved afterwards', async () => {
    const session = await signUp(t);
    const code = await requestCode(t);
    expect((await decide(t, session, code.user_code, 'deny')).statusCode).toBe(200);
    const poll = await pollToken(t, code.device_code);
    expect(poll.json()).toMatchObject({ error: 'access_denied', code: 'access_denied' });
    expect((await decide(t, session, code.user_code, 'approve')).json()).toMatchObject({ code: 'not_found' });
  });
}

function linkedPerAccountTests() {
  test(`an account links at most ${DEVICE_MAX_LINKED_PER_ACCOUNT} companions: the next approval is 409 until one is unlinked`, async () => {
    const session = await signUp(t);
    const me = await http('/api/auth/me', { token: session });
    const userId = String((me.body.user as { id: string | number }).id);
    const now = new Date().toISOString();
    // All but one linked earlier (the approvals' own per-minute budget is tested above).
    await t.context.db
      .insertInto('devices')
      .values(
        Array.from({ length: DEVICE_MAX_LINKED_PER_ACCOUNT - 1 }, (_, i) => ({
          id: `room-${userId}-${i}`,
          user_id: userId,
          name: `Room ${i}`,
          platform: 'linux-x64',
          version: '1.0.0',
          token_hash: `hash-${userId}-${i}`,
          created_at: now,
          last_seen_at: now,
          revoked_at: null,
          lights: null,
          lights_updated_at: null,
        })),
      )
      .execute();
    const last = await linkDevice(t, session);
    const extra = await requestCode(t);
    const refused = await decide(t, session, extra.user_code, 'approve');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict', error: expect.stringContaining('Unlink one') });
    expect((await pollToken(t, extra.device_code)).json()).toMatchObject({ code: 'authorization_pending' });
    expect((await http(`/api/devices/${last.id}`, { method: 'DELETE', token: session })).status).toBe(200);
    expect((await decide(t, session, extra.user_code, 'approve')).statusCode).toBe(200);
  });

  test('a relinked computer (same name and platform) takes over its room delay; another one of that name online keeps its own', async () => {
    const session = await signUp(t);
    const link = async (name: string) => {
      const code = await requestCode(t, { name, platform: 'linux-x64', version: '1.0.0' });
      expect((await decide(t, session, code.user_code, 'approve')).statusCode).toBe(200);
      const granted = (await pollToken(t, code.device_code)).json<{
        access_token: string;
        device: { id: string };
      }>();
      tokens.set(granted.device.id, granted.access_token);
      return granted.device.id;
    };
    const tokens = new Map<string, string>();
    const preferences = async () =>
      (await http('/api/me/preferences', { token: session })).body as {
        version: number;
        preferences: Record<string, unknown> & { delayOffsetsMs: Record<string, number> };
      };
    const first = await link('Bedroom PC');
    const other = await link('Lounge PC');
    const before = await preferences();
    const put = await http('/api/me/preferences', {
      method: 'PUT',
      token: session,
      body: {
        version: before.version,
        preferences: { ...before.preferences, delayOffsetsMs: { [first]: 2500, [other]: -1000 } },
      },
    });
    expect(put.status).toBe(200);
    // Reinstalled: the old link stays, offline, and a new one of the same name comes.
    const second = await link('Bedroom PC');
    expect((await preferences()).preferences.delayOffsetsMs).toEqual({
      [first]: 2500,
      [other]: -1000,
      [second]: 2500,
    });
    // Unlinked, then linked again: the room delay goes over once more.
    expect((await http(`/api/devices/${second}`, { method: 'DELETE', token: session })).status).toBe(200);
    const third = await link('Bedroom PC');
    expect((await preferences()).preferences.delayOffsetsMs[third]).toBe(2500);
    // Another computer's name: nothing goes over.
    const fourth = await link('Kitchen Pi');
    expect((await preferences()).preferences.delayOffsetsMs[fourth]).toBeUndefined();
    // A second computer of the same name while the first is online (two Pis): each keeps its own.
    const stream = await openStream(tokens.get(third)!);
    await vi.waitFor(() => expect(t.context.live.deviceStreams.isOnline(third)).toBe(true));
    const fifth = await link('Bedroom PC');
    expect((await preferences()).preferences.delayOffsetsMs[fifth]).toBeUndefined();
    stream.close();
  });
}

function refusedRequestTests() {
  test('another grant type is unsupported_grant_type; an unknown device code is invalid_grant', async () => {
    const code = await requestCode(t);
    const wrongType = await pollToken(t, code.device_code, 'authorization_code');
    expect(wrongType.json()).toMatchObject({
      error: 'unsupported_grant_type',
      code: 'unsupported_grant_type',
    });
    const unknown = await pollToken(t, 'made-up-device-code');
    expect(unknown.json()).toMatchObject({ error: 'invalid_grant', code: 'invalid_grant' });
  });

  test('a user code that is not 8 letters of the alphabet is simply unknown', async () => {
    const session = await signUp(t);
    for (const code of ['AAAA-AAAA', 'BCDF-GHJ', '0000-0000', 'BCDF-GHJKM']) {
      const res = await decide(t, session, code, 'approve');
      expect(res.statusCode, code).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  test("a device token is refused on the account's own routes: password, payments, admin, devices, sign-out", async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    for (const [method, url] of [
      ['GET', '/api/auth/me'],
      ['GET', '/api/devices'],
      ['POST', '/api/device/approve'],
      ['DELETE', `/api/devices/${device.id}`],
      ['GET', '/admin/users'],
      ['POST', '/api/payments/checkout'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${device.token}` },
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().code).toBe('unauthenticated');
    }
  });

  test("another account's companion cannot be unlinked or seen: 404, and it stays linked", async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const device = await linkDevice(t, owner);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${device.id}`,
      headers: { authorization: `Bearer ${stranger}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/devices',
      headers: { authorization: `Bearer ${stranger}` },
    });
    expect(theirs.json()).toEqual([]);
    const state = await t.app.inject({
      method: 'GET',
      url: `/api/live/state?sessionKey=${sessionKey}`,
      headers: { authorization: `Bearer ${device.token}` },
    });
    expect(state.statusCode).toBe(200);
  });
}

function unlinkingTests() {
  test('unlinking a companion ends its open stream (with an unlinked event) and its token gets 401; the browser stream stays', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const companion = await openStream(device.token);
    const browser = await openStream(session);
    await vi.waitFor(() => expect(companion.events.some((e) => e.event === 'status')).toBe(true));

    const unlinked = await http(`/api/devices/${device.id}`, { method: 'DELETE', token: session });
    expect(unlinked).toEqual({ status: 200, body: { success: true } });
    await vi.waitFor(() => expect(companion.ended()).toBe(true));
    expect(companion.events.at(-1)).toMatchObject({ event: 'unlinked' });
    expect(JSON.parse(companion.events.at(-1)!.data!)).toMatchObject({ code: 'unauthenticated' });

    const ticket = await http('/api/live/ticket', { method: 'POST', token: device.token });
    expect(ticket.status).toBe(401);
    expect(ticket.body.code).toBe('unauthenticated');
    expect((await http('/api/devices', { token: session })).body).toEqual([]);
    // Unlinking twice: nothing left to unlink.
    expect((await http(`/api/devices/${device.id}`, { method: 'DELETE', token: session })).status).toBe(404);
    expect(browser.ended()).toBe(false);
    browser.close();
  });

  test('a ticket asked before the unlink opens no stream after it (401)', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const ticket = await http('/api/live/ticket', { method: 'POST', token: device.token });
    expect(ticket.status).toBe(200);
    expect((await http(`/api/devices/${device.id}`, { method: 'DELETE', token: session })).status).toBe(200);
    const res = await fetch(
      `${origin}/api/live/events?ticket=${String(ticket.body.ticket)}&sessionKey=${sessionKey}`,
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthenticated' });
  });
}

function rateLimitAndLastSeenTests() {
  test('guessing user codes: one account gets 429 after the per-minute budget, from any address', async () => {
    const session = await signUp(t);
    const statuses: number[] = [];
    for (let i = 0; i < DEVICE_APPROVALS_PER_MINUTE + 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/device/approve',
        payload: { code: `BCDF-GH${USER_CODE_ALPHABET[i % 19]}${USER_CODE_ALPHABET[(i + 3) % 19]}` },
        headers: { authorization: `Bearer ${session}` },
        remoteAddress: `10.9.0.${i + 1}`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, DEVICE_APPROVALS_PER_MINUTE).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  test('codes are issued at most 10 a minute per client address', async () => {
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/device/code',
        payload: { name: 'PC', platform: 'linux-x64', version: '1.0.0' },
        remoteAddress: '10.8.0.1',
      });
    for (let i = 0; i < DEVICE_CODES_PER_MINUTE; i++) expect((await ask()).statusCode).toBe(200);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
  });

  test('last seen is written at most once a minute', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const lastSeen = async () =>
      (
        await t.context.db
          .selectFrom('devices')
          .select('last_seen_at')
          .where('id', '=', device.id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const state = () =>
      t.app.inject({
        method: 'GET',
        url: `/api/live/state?sessionKey=${sessionKey}`,
        headers: { authorization: `Bearer ${device.token}` },
      });
    const linked = await lastSeen();
    offset += 30_000;
    await state();
    expect(await lastSeen()).toBe(linked);
    offset += 31_000;
    await state();
    expect(await lastSeen()).not.toBe(linked);
  });
}

describe('a companion unlinked through another instance', () => {
  const timers = createFakeTimers(Date.now());
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    t = await buildLiveApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' }, timers });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  test('loses its open stream at the next heartbeat (the stream asks the database)', async () => {
    const sessionKey = startReplay(t);
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/live/ticket',
      headers: { authorization: `Bearer ${device.token}` },
    });
    expect(ticket.statusCode).toBe(200);
    const res = await fetch(
      `${origin}/api/live/events?ticket=${ticket.json().ticket}&sessionKey=${sessionKey}`,
    );
    expect(res.status).toBe(200);
    const events: SseEvent[] = [];
    let ended = false;
    void readSse(res.body!, (event) => events.push(event)).done.then(() => {
      ended = true;
    });
    await vi.waitFor(() => expect(t.context.live.deviceStreams.isOnline(device.id)).toBe(true));

    // Still linked: a heartbeat changes nothing.
    await timers.advance(DEVICE_STREAM_HEARTBEAT_MS);
    expect(ended).toBe(false);
    // Another instance unlinks it: this one's in-process registry never hears of it.
    const { id: userId } = (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${session}` },
      })
    ).json().user;
    expect(await createDevicesRepository(t.context.db).revoke(device.id, String(userId), new Date())).toBe(
      true,
    );
    await timers.advance(DEVICE_STREAM_HEARTBEAT_MS);
    await vi.waitFor(() => expect(ended).toBe(true));
    expect(events.at(-1)).toMatchObject({ event: 'unlinked' });
    expect(t.context.live.deviceStreams.isOnline(device.id)).toBe(false);
  });
});

for (const dialect of dialects) {
  describe(`companion linking (${dialect})`, () => {
    useDevicesApp(dialect);
    describe('linking a companion', linkingTests);
    describe('linked companions of an account', linkedPerAccountTests);
    describe('refused requests', refusedRequestTests);
    describe('unlinking', unlinkingTests);
    describe('rate limits and last seen', rateLimitAndLastSeenTests);
  });
}
