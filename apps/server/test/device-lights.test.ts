import crypto from 'node:crypto';
import {
  DEVICE_LIGHT_REPORTS_PER_MINUTE,
  DEVICE_MAX_LIGHTS,
  DEVICE_TESTS_PER_MINUTE,
} from '@flaglight/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createSystemTimers } from '../src/live/clock.js';
import { linkDevice } from './device-helpers.js';
import { LIGHTS, api, lightsOf, openStream, userIdOf } from './device-lights-helpers.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';
import { buildLiveApp, signUp, startReplay } from './live-helpers.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

// One app per dialect, shared by every theme below and run in order.
let t: TestApp;
let origin: string;
let sessionKey: number;

function useDeviceLightsApp(dialect: (typeof dialects)[number]) {
  beforeAll(async () => {
    t = await buildTestApp({ dialect, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    sessionKey = startReplay(t);
  });
  afterAll(() => t.close());
}

function reportingTests() {
  test('a companion reports its lights; the device list shows them and when; a new report replaces them', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const before = (await api(t).list(session)).json()[0];
    expect(before).toMatchObject({ id: device.id, lights: [], lightsUpdatedAt: null });

    const reported = await api(t).report(device.token, { lights: LIGHTS });
    expect(reported.statusCode).toBe(200);
    expect(reported.json()).toEqual({ success: true });
    const listed = (await api(t).list(session)).json()[0];
    expect(listed.lights).toEqual(LIGHTS);
    expect(Date.parse(listed.lightsUpdatedAt)).not.toBeNaN();

    // Unknown fields are dropped, not stored.
    const again = await api(t).report(device.token, {
      lights: [{ ...LIGHTS[0], secret: 'x' }],
      extra: true,
    });
    expect(again.statusCode).toBe(200);
    expect((await api(t).list(session)).json()[0].lights).toEqual([LIGHTS[0]]);
    expect((await api(t).report(device.token, { lights: [] })).statusCode).toBe(200);
    expect((await api(t).list(session)).json()[0].lights).toEqual([]);
  });

  test('a signed-in account cannot report lights (403 forbidden), a signed-out client gets 401, an unknown token 401', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const asUser = await api(t).report(session, { lights: LIGHTS });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({ code: 'forbidden', error: expect.stringContaining('Companion') });
    expect((await api(t).report(undefined, { lights: LIGHTS })).json()).toMatchObject({
      code: 'unauthenticated',
    });
    expect((await api(t).report('made-up-token', { lights: LIGHTS })).statusCode).toBe(401);
    expect((await api(t).list(session)).json()[0]).toMatchObject({ id: device.id, lights: [] });
  });

  test.each([
    ['an unknown provider', { lights: [{ ...LIGHTS[0], provider: 'lifx' }] }],
    ['an empty id', { lights: [{ ...LIGHTS[0], id: '' }] }],
    ['an id of 129 characters', { lights: [{ ...LIGHTS[0], id: 'a'.repeat(129) }] }],
    ['an id with a line break', { lights: [{ ...LIGHTS[0], id: 'd073\nd5' }] }],
    ['a label of 81 characters', { lights: [{ ...LIGHTS[0], label: 'L'.repeat(81) }] }],
    ['a label with a NUL', { lights: [{ ...LIGHTS[0], label: 'a\u0000b' }] }],
    ['reachable as text', { lights: [{ ...LIGHTS[0], reachable: 'yes' }] }],
    ['a missing field', { lights: [{ provider: 'lifx_lan', id: 'x', label: 'x' }] }],
    ['lights that are not a list', { lights: { a: 1 } }],
    ['no lights at all', {}],
    [`${DEVICE_MAX_LIGHTS + 1} lights`, { lights: lightsOf(DEVICE_MAX_LIGHTS + 1) }],
  ])('%s is refused with 400 invalid_input and stores nothing', async (_name, payload) => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const res = await api(t).report(device.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_input', error: expect.any(String) });
    expect((await api(t).list(session)).json()[0].lightsUpdatedAt).toBeNull();
  });

  test(`${DEVICE_MAX_LIGHTS} lights are taken; a body above the size limit is 413`, async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    expect((await api(t).report(device.token, { lights: lightsOf(DEVICE_MAX_LIGHTS) })).statusCode).toBe(200);
    expect((await api(t).list(session)).json()[0].lights).toHaveLength(DEVICE_MAX_LIGHTS);
    // The longest report a real companion makes: every light with a 128-character id and an 80-character name.
    const longest = lightsOf(DEVICE_MAX_LIGHTS).map((light, i) => ({
      ...light,
      provider: 'home_assistant' as const,
      id: `light.${String(i).padStart(4, '0')}_${'a'.repeat(117)}`,
      label: 'L'.repeat(80),
    }));
    expect(Buffer.byteLength(JSON.stringify({ lights: longest }))).toBeGreaterThan(64 * 1024);
    expect((await api(t).report(device.token, { lights: longest })).statusCode).toBe(200);
    const huge = lightsOf(DEVICE_MAX_LIGHTS).map((light) => ({
      ...light,
      label: 'L'.repeat(80),
      pad: 'x'.repeat(400),
    }));
    const res = await api(t).report(device.token, { lights: huge });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  test('a companion says what it does (port, paused, stream, flag); the list shows it, pages hear of a change, bad input is 400', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const page = await openStream(t, origin, session, sessionKey);
    const state = { bridgePort: 47961, paused: true, stream: 'following', message: null, showing: 'vsc' };
    const put = (token: string, payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/device/state',
        headers: { authorization: `Bearer ${token}` },
        payload: payload as object,
      });
    expect((await api(t).list(session)).json()[0]).toMatchObject({ state: null, stateUpdatedAt: null });
    expect((await put(device.token, state)).statusCode).toBe(200);
    expect((await api(t).list(session)).json()[0]).toMatchObject({
      state,
      stateUpdatedAt: expect.any(String),
    });
    await vi.waitFor(() => expect(page.of('devices').length).toBe(1));
    // The same state again is no news.
    expect((await put(device.token, state)).statusCode).toBe(200);
    for (const bad of [
      { ...state, bridgePort: 80 },
      { ...state, stream: 'dancing' },
      { ...state, showing: 'blue' },
      { ...state, message: 'a\nforged line' },
      { ...state, paused: undefined },
    ])
      expect((await put(device.token, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    // Only the companion itself says it: the account's session may not.
    expect((await put(session, state)).statusCode).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(page.of('devices').length).toBe(1);
    page.close();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${device.id}`,
      headers: { authorization: `Bearer ${session}` },
    });
    expect((await put(device.token, state)).statusCode).toBe(401);
  });
}

function accountBoundaryTests() {
  test("another account never sees a companion's lights", async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const device = await linkDevice(t, owner);
    expect((await api(t).report(device.token, { lights: LIGHTS })).statusCode).toBe(200);
    expect((await api(t).list(stranger)).json()).toEqual([]);
    // The stranger's own companion reports into its own row only.
    const theirs = await linkDevice(t, stranger);
    expect((await api(t).report(theirs.token, { lights: [LIGHTS[1]] })).statusCode).toBe(200);
    expect((await api(t).list(owner)).json()[0].lights).toEqual(LIGHTS);
    expect((await api(t).list(stranger)).json()[0].lights).toEqual([LIGHTS[1]]);
  });

  test('unlinking removes the lights, and the unlinked token can report no more (401)', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    expect((await api(t).report(device.token, { lights: LIGHTS })).statusCode).toBe(200);
    const unlink = await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${device.id}`,
      headers: { authorization: `Bearer ${session}` },
    });
    expect(unlink.statusCode).toBe(200);
    const row = await t.context.db
      .selectFrom('devices')
      .select(['lights', 'lights_updated_at'])
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lights: null, lights_updated_at: null });
    expect((await api(t).report(device.token, { lights: LIGHTS })).statusCode).toBe(401);
  });

  test('deleting the account deletes its companions and their lights', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    expect((await api(t).report(device.token, { lights: LIGHTS })).statusCode).toBe(200);
    expect(await t.context.auth.users.delete(await userIdOf(t, session))).toBe(true);
    expect(
      await t.context.db.selectFrom('devices').selectAll().where('id', '=', device.id).execute(),
    ).toEqual([]);
  });
}

function eventAndTestTests() {
  test("a change of a companion's lights or presence reaches the account's streams as event: devices, and no other account's", async () => {
    const session = await signUp(t);
    const stranger = await signUp(t);
    const device = await linkDevice(t, session);
    const page = await openStream(t, origin, session, sessionKey);
    const strangers = await openStream(t, origin, stranger, sessionKey);

    // The companion comes online.
    const companion = await openStream(t, origin, device.token, sessionKey);
    await vi.waitFor(() => expect(page.of('devices')).toHaveLength(1));
    expect(page.of('devices')[0]).toEqual({});

    expect((await api(t).report(device.token, { lights: LIGHTS })).statusCode).toBe(200);
    await vi.waitFor(() => expect(page.of('devices')).toHaveLength(2));
    // The same list again is no change: no event.
    expect((await api(t).report(device.token, { lights: LIGHTS })).statusCode).toBe(200);
    expect((await api(t).report(device.token, { lights: [LIGHTS[0]] })).statusCode).toBe(200);
    await vi.waitFor(() => expect(page.of('devices')).toHaveLength(3));

    // The companion goes offline.
    companion.close();
    await vi.waitFor(() => expect(page.of('devices')).toHaveLength(4));
    expect(strangers.of('devices')).toEqual([]);
    page.close();
    strangers.close();
  });

  test("a test reaches the account's companion streams, never a web page's, and says how many companions it reached", async () => {
    const session = await signUp(t);
    const stranger = await signUp(t);
    const device = await linkDevice(t, session);
    const strangersDevice = await linkDevice(t, stranger);

    // No companion online: nobody reached.
    const none = await api(t).test(session, { state: 'yellow' });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ success: true, devices: 0 });

    const page = await openStream(t, origin, session, sessionKey);
    const companion = await openStream(t, origin, device.token, sessionKey);
    const strangersCompanion = await openStream(t, origin, strangersDevice.token, sessionKey);
    const res = await api(t).test(session, { state: 'safety' });
    expect(res.json()).toEqual({ success: true, devices: 1 });
    await vi.waitFor(() => expect(companion.of('test')).toHaveLength(1));
    const [sent] = companion.of('test') as Array<{ state: string; requestedAt: string }>;
    expect(sent!.state).toBe('safety');
    expect(Date.parse(sent!.requestedAt)).not.toBeNaN();

    // A later event reaches the page: by then the test would have too, had it been sent there.
    await t.app.inject({
      method: 'PUT',
      url: '/api/me/preferences',
      headers: { authorization: `Bearer ${session}` },
      payload: {
        version: 0,
        preferences: { ...(await t.context.preferences.get(await userIdOf(t, session))).preferences },
      },
    });
    await vi.waitFor(() => expect(page.of('preferences')).toHaveLength(1));
    expect(page.of('test')).toEqual([]);
    expect(page.events.map((e) => e.event)).not.toContain('test');
    expect(strangersCompanion.of('test')).toEqual([]);
    for (const s of [page, companion, strangersCompanion]) s.close();
  });

  test('a test needs a known flag, a session (not a device token), and a JSON body', async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    for (const payload of [{ state: 'purple' }, { state: 3 }, {}, { state: 'YELLOW' }]) {
      const res = await api(t).test(session, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_input' });
    }
    expect((await api(t).test(device.token, { state: 'green' })).json()).toMatchObject({
      code: 'unauthenticated',
    });
    expect((await api(t).test(undefined, { state: 'green' })).statusCode).toBe(401);
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/devices/test',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'text/plain' },
      payload: 'yellow',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 'invalid_input' });
  });
}

for (const dialect of dialects) {
  describe(`companion lights and tests (${dialect})`, () => {
    useDeviceLightsApp(dialect);
    describe('reporting lights', reportingTests);
    describe("one account's lights, removed with it", accountBoundaryTests);
    describe('device events and tests', eventAndTestTests);
  });
}

describe('companion lights and tests: rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => t.close());

  test(`reports are limited to ${DEVICE_LIGHT_REPORTS_PER_MINUTE} a minute per companion, from any address`, async () => {
    const session = await signUp(t);
    const device = await linkDevice(t, session);
    const other = await linkDevice(t, session);
    const statuses: number[] = [];
    for (let i = 0; i <= DEVICE_LIGHT_REPORTS_PER_MINUTE; i++) {
      statuses.push((await api(t).report(device.token, { lights: LIGHTS }, `10.6.0.${i + 1}`)).statusCode);
    }
    expect(statuses.slice(0, DEVICE_LIGHT_REPORTS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    const refused = await api(t).report(device.token, { lights: LIGHTS });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    // Another companion of the same account has a budget of its own.
    expect((await api(t).report(other.token, { lights: LIGHTS })).statusCode).toBe(200);
  });

  test(`tests are limited to ${DEVICE_TESTS_PER_MINUTE} a minute per account, from any address`, async () => {
    const session = await signUp(t);
    const statuses: number[] = [];
    for (let i = 0; i <= DEVICE_TESTS_PER_MINUTE; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/devices/test',
        headers: { authorization: `Bearer ${session}` },
        payload: { state: 'green' },
        remoteAddress: `10.5.0.${i + 1}`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, DEVICE_TESTS_PER_MINUTE).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another account still tests.
    expect((await api(t).test(await signUp(t), { state: 'green' })).statusCode).toBe(200);
  });
});

describe.skipIf(!TEST_REDIS_URL)(
  'companion events across two instances sharing Redis (set TEST_REDIS_URL to run)',
  () => {
    const prefix = `flaglight-test:${crypto.randomBytes(5).toString('hex')}:`;
    let a: TestApp;
    let b: TestApp;
    let originB: string;
    beforeAll(async () => {
      const timers = createSystemTimers(() => Date.now());
      const env = {
        REDIS_URL: TEST_REDIS_URL!,
        REDIS_KEY_PREFIX: prefix,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      };
      a = await buildLiveApp({ env, timers });
      b = await buildLiveApp({ env, timers });
      originB = await b.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      const admin = new Redis(TEST_REDIS_URL!);
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
      await admin.quit();
    });

    test('a report and a test on instance A reach the streams held by instance B', async () => {
      // Separate SQLite files: the account and its companion exist on instance B's database.
      const session = await signUp(b);
      const device = await linkDevice(b, session);
      const sessionKey = startReplay(b);
      const page = await openStream(b, originB, session, sessionKey);
      const companion = await openStream(b, originB, device.token, sessionKey);
      await vi.waitFor(() => expect(page.of('devices')).toHaveLength(1));

      // Instance A publishes for the same account id (as it would with one shared database).
      const userId = await userIdOf(b, session);
      a.context.live.userEvents.publish(userId, { type: 'devices' });
      a.context.live.userEvents.publish(userId, {
        type: 'test',
        data: { state: 'red', requestedAt: new Date().toISOString() },
      });
      await vi.waitFor(() => expect(page.of('devices')).toHaveLength(2));
      await vi.waitFor(() =>
        expect(companion.of('test')).toEqual([expect.objectContaining({ state: 'red' })]),
      );
      expect(page.of('test')).toEqual([]);
      page.close();
      companion.close();
    });
  },
);
