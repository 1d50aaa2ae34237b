import crypto from 'node:crypto';
import {
  DEFAULT_PREFERENCES,
  ErrorBodySchema,
  PREFERENCES_BODY_LIMIT_BYTES,
  PREFERENCES_MAX_LIGHTS_PER_PROVIDER,
  PreferencesDocumentSchema,
  type Preferences,
} from '@flaglight/contract';
import { CALM, COLOR_PRESETS, LIGHT_PROVIDERS } from '@flaglight/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createSystemTimers } from '../src/live/clock.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';
import { buildLiveApp, readSse, signUp, type SseEvent } from './live-helpers.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

const changed = (over: Partial<Preferences> = {}): Preferences => ({
  ...DEFAULT_PREFERENCES,
  delay: { enabled: true, seconds: 27 },
  autoConnect: false,
  selectedLights: { lifx: ['d073d5000001', 'd073d5000002'], hue: ['hue-light-1'] },
  delayOffsetsMs: { 'device-1': -1500 },
  ...over,
});

/**
 * The largest real house: every brand at its drivers' caps (LIFX LAN 256, Home Assistant 500, Govee,
 * Nanoleaf and WLED 64 each, a full Hue bridge of 63) and the cloud accounts beside them, each id in
 * the form and length its vendor uses (Home Assistant entity ids at 48 characters).
 */
function largestHouse(): Preferences['selectedLights'] {
  const hex = (i: number, width: number) => i.toString(16).padStart(width, '0');
  const uuid = (i: number) => `${hex(i, 8)}-1f2e-4d3c-8b7a-${hex(i, 12)}`;
  const goveeId = (i: number) => `1F:80:C5:32:32:36:${hex(i >> 8, 2)}:${hex(i & 255, 2)}`.toUpperCase();
  const times = (n: number, id: (i: number) => string) => Array.from({ length: n }, (_, i) => id(i));
  return {
    lifx: times(256, (i) => `d073d5${hex(i, 6)}`),
    hue: times(63, uuid),
    govee: times(64, goveeId),
    lifx_lan: times(256, (i) => `d073d5${hex(i, 6)}`),
    hue_local: times(63, uuid),
    govee_lan: times(64, goveeId),
    nanoleaf: times(64, (i) => `s19${hex(i, 5)}`),
    home_assistant: times(
      500,
      (i) => `light.living_room_ceiling_spot_${String(i).padStart(3, '0')}_left_wall`,
    ),
    wled: times(64, (i) => `a0b765${hex(i, 6)}`),
  };
}

function request(t: TestApp, token: string | undefined) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  return {
    get: () => t.app.inject({ method: 'GET', url: '/api/me/preferences', headers }),
    put: (payload: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/me/preferences', headers, payload: payload as object }),
  };
}

/** Opens an event stream of the account on a replayed session and collects its events. */
async function openStream(t: TestApp, origin: string, token: string, ticketFrom: TestApp = t) {
  const sessionKey = t.context.live.hub.startReplay({
    messages: [],
    speed: 1,
    positionMs: 0,
    info: { test: true },
  });
  const ticket = (
    await ticketFrom.app.inject({
      method: 'POST',
      url: `/api/live/ticket?sessionKey=${sessionKey}`,
      headers: { authorization: `Bearer ${token}` },
    })
  ).json().ticket as string;
  const controller = new AbortController();
  const res = await fetch(`${origin}/api/live/events?ticket=${ticket}&sessionKey=${sessionKey}`, {
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  // The head is sent in the same turn as the stream joins the account's events: subscribed now.
  readSse(res.body!, (e) => events.push(e));
  return {
    events,
    preferences: () =>
      events.filter((e) => e.event === 'preferences').map((e) => JSON.parse(e.data!) as unknown),
    close: () => controller.abort(),
  };
}

// One app per dialect, shared by every theme below and run in order.
let t: TestApp;
let origin: string;
let alice: string;
let bob: string;

function usePreferencesApp(dialect: (typeof dialects)[number]) {
  beforeAll(async () => {
    t = await buildTestApp({ dialect });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    alice = await signUp(t);
    bob = await signUp(t);
  });
  afterAll(() => t.close());
}

function versionTests() {
  test('a new account has the defaults at version 0', async () => {
    const res = await request(t, alice).get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: 0, preferences: DEFAULT_PREFERENCES, updatedAt: null });
  });

  test('a write is read back, and each write raises the version by one', async () => {
    const first = await request(t, alice).put({ version: 0, preferences: changed() });
    expect(first.statusCode).toBe(200);
    expect(PreferencesDocumentSchema.parse(first.json())).toMatchObject({
      version: 1,
      preferences: changed(),
    });
    expect((await request(t, alice).get()).json()).toEqual(first.json());

    const second = await request(t, alice).put({ version: 1, preferences: changed({ autoConnect: true }) });
    expect(second.json()).toMatchObject({ version: 2, preferences: { autoConnect: true } });
  });

  test('a write based on a stale version is refused with 409 conflict and the current document', async () => {
    const now = (await request(t, alice).get()).json();
    const stale = await request(t, alice).put({
      version: now.version - 1,
      preferences: changed({ delay: { enabled: false, seconds: 3 } }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ error: expect.any(String), code: 'conflict', current: now });
    // A first write cannot overwrite a document that already exists either.
    const first = await request(t, alice).put({ version: 0, preferences: DEFAULT_PREFERENCES });
    expect(first.statusCode).toBe(409);
    expect((await request(t, alice).get()).json()).toEqual(now);
  });

  test('of two writes on the same version exactly one wins', async () => {
    const base = (await request(t, alice).get()).json().version as number;
    const results = await Promise.all(
      [10, 20].map((seconds) =>
        request(t, alice).put({ version: base, preferences: changed({ delay: { enabled: true, seconds } }) }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await request(t, alice).get()).json().version).toBe(base + 1);
  });

  test.each([
    ['a delay above the bound', { delay: { enabled: true, seconds: 301 } }],
    ['a negative delay', { delay: { enabled: true, seconds: -1 } }],
    ['a fractional delay', { delay: { enabled: true, seconds: 2.5 } }],
    ['a light id with a line break', { selectedLights: { lifx: ['a\nb'] } }],
    [
      'too many lights',
      {
        selectedLights: {
          lifx: Array.from({ length: PREFERENCES_MAX_LIGHTS_PER_PROVIDER + 1 }, (_, i) => `l${i}`),
        },
      },
    ],
    ['a provider name that is not one', { selectedLights: { 'Not A Provider!': [] } }],
    ['an offset beyond two minutes', { delayOffsetsMs: { d: 120_001 } }],
  ])('%s is refused with 400 and a code', async (_name, over) => {
    const before = (await request(t, alice).get()).json();
    const res = await request(t, alice).put({
      version: before.version,
      preferences: { ...changed(), ...over },
    });
    expect(res.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(res.json()).code).toBe('invalid_input');
    expect((await request(t, alice).get()).json()).toEqual(before);
  });
}

function documentContentTests() {
  test("a house with every brand at its drivers' caps is kept whole, selected and hidden", async () => {
    const erin = await signUp(t);
    const house = largestHouse();
    expect(Object.keys(house).sort()).toEqual([...LIGHT_PROVIDERS].sort());
    const res = await request(t, erin).put({
      version: 0,
      preferences: { ...DEFAULT_PREFERENCES, selectedLights: house, hiddenLights: house },
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect((await request(t, erin).get()).json().preferences).toMatchObject({
      selectedLights: house,
      hiddenLights: house,
    });
  });

  test('a body above the preferences limit is 413 and changes nothing', async () => {
    const before = (await request(t, alice).get()).json();
    const ids = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}${'z'.repeat(120)}`);
    const res = await request(t, alice).put({
      version: before.version,
      preferences: {
        ...changed(),
        selectedLights: { lifx: ids(1024, 'a'), hue: ids(1024, 'b'), govee: ids(200, 'c') },
      },
    });
    expect(JSON.stringify({ preferences: changed() }).length).toBeLessThan(PREFERENCES_BODY_LIMIT_BYTES);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
    expect((await request(t, alice).get()).json()).toEqual(before);
  });

  test('a provider the product does not know is refused by name, not counted', async () => {
    const before = (await request(t, alice).get()).json();
    const res = await request(t, alice).put({
      version: before.version,
      preferences: { ...changed(), selectedLights: { lifx: ['d073d5000001'], zigbee: ['z1'] } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('unknown provider "zigbee"');
    expect(res.json().error).toContain('home_assistant');
    expect((await request(t, alice).get()).json()).toEqual(before);
  });

  test('a stored document naming a provider this release does not know keeps everything else', async () => {
    const fay = await signUp(t);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${fay}` },
    });
    await t.context.db
      .insertInto('user_preferences')
      .values({
        user_id: String(me.json().user.id),
        version: 4,
        data: JSON.stringify({ ...changed(), selectedLights: { wled: ['a0b765d00001'], retired: ['x'] } }),
        updated_at: new Date().toISOString(),
      })
      .execute();
    expect((await request(t, fay).get()).json()).toMatchObject({
      version: 4,
      preferences: { delay: { seconds: 27 }, selectedLights: { wled: ['a0b765d00001'] } },
    });
    expect((await request(t, fay).get()).json().preferences.selectedLights).not.toHaveProperty('retired');
  });

  test('sharedLightsDriver: a document stored without it reads as companion; browser is kept; anything else is 400', async () => {
    const dave = await signUp(t);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${dave}` },
    });
    const userId = String(me.json().user.id);
    // A row written before the field existed.
    const { sharedLightsDriver: _dropped, ...older } = changed();
    await t.context.db
      .insertInto('user_preferences')
      .values({
        user_id: userId,
        version: 1,
        data: JSON.stringify(older),
        updated_at: new Date().toISOString(),
      })
      .execute();
    expect((await request(t, dave).get()).json()).toMatchObject({
      version: 1,
      preferences: { sharedLightsDriver: 'companion', delay: { seconds: 27 } },
    });
    const browser = await request(t, dave).put({
      version: 1,
      preferences: { ...changed(), sharedLightsDriver: 'browser' },
    });
    expect(browser.statusCode).toBe(200);
    expect((await request(t, dave).get()).json().preferences.sharedLightsDriver).toBe('browser');
    // A client that does not know the field yet sends none: the default applies.
    const { sharedLightsDriver: _none, ...withoutField } = changed();
    const old = await request(t, dave).put({ version: 2, preferences: withoutField });
    expect(old.json().preferences.sharedLightsDriver).toBe('companion');
    const bad = await request(t, dave).put({
      version: 3,
      preferences: { ...changed(), sharedLightsDriver: 'tv' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_input' });
  });

  test('a Calm look set is kept whole and read back', async () => {
    const gil = await signUp(t);
    const res = await request(t, gil).put({
      version: 0,
      preferences: { ...DEFAULT_PREFERENCES, looks: CALM },
    });
    expect(res.statusCode).toBe(200);
    expect((await request(t, gil).get()).json().preferences.looks).toEqual(CALM);
  });

  test('the follow settings are kept whole, and an unknown session kind is refused by name', async () => {
    const hana = await signUp(t);
    const lightFollow = {
      sessions: ['qualifying', 'race'],
      afterGreen: { action: 'give-back', afterSeconds: 90 },
      sessionEnd: 'as-it-was',
    };
    const res = await request(t, hana).put({
      version: 0,
      preferences: { ...DEFAULT_PREFERENCES, lightFollow },
    });
    expect(res.statusCode).toBe(200);
    expect((await request(t, hana).get()).json().preferences.lightFollow).toEqual(lightFollow);
    const bad = await request(t, hana).put({
      version: 1,
      preferences: { ...DEFAULT_PREFERENCES, lightFollow: { ...lightFollow, sessions: ['karting'] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(
      'preferences.lightFollow.sessions.0: unknown session kind "karting" (known: practice, qualifying, sprint_qualifying, sprint, race)',
    );
  });

  test('a look with a hue of 400 is refused with a 400 naming the field', async () => {
    const red = { ...CALM.flags.red, color: { ...COLOR_PRESETS.red, hue: 400 } };
    const looks = { ...CALM, flags: { ...CALM.flags, red } };
    const res = await request(t, alice).put({ version: 0, preferences: { ...changed(), looks } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'preferences.looks.flags.red.color.hue: must be 0 to 360',
      code: 'invalid_input',
    });
  });

  test('a body without a version or with missing fields is refused', async () => {
    expect((await request(t, alice).put({ preferences: changed() })).statusCode).toBe(400);
    expect((await request(t, alice).put({ version: 1, preferences: { autoConnect: true } })).statusCode).toBe(
      400,
    );
  });
}

function accountAndStreamTests() {
  test('signed out, nothing is read or written', async () => {
    expect((await request(t, undefined).get()).json()).toMatchObject({ code: 'unauthenticated' });
    expect((await request(t, undefined).put({ version: 0, preferences: changed() })).statusCode).toBe(401);
  });

  test("another account's preferences are neither read nor written", async () => {
    const mine = (await request(t, alice).get()).json();
    // Bob sees his own defaults, and his write (even at Alice's version) lands in his own document.
    expect((await request(t, bob).get()).json()).toMatchObject({ version: 0 });
    const bobs = await request(t, bob).put({ version: mine.version, preferences: DEFAULT_PREFERENCES });
    expect(bobs.statusCode).toBe(409);
    expect(bobs.json().current.version).toBe(0);
    expect((await request(t, alice).get()).json()).toEqual(mine);
  });

  test('deleting an account deletes its preferences', async () => {
    const carol = await signUp(t);
    expect((await request(t, carol).put({ version: 0, preferences: changed() })).statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${carol}` },
    });
    const id = String(me.json().user.id);
    expect(await t.context.auth.users.delete(id)).toBe(true);
    expect(
      await t.context.db.selectFrom('user_preferences').selectAll().where('user_id', '=', id).execute(),
    ).toEqual([]);
  });

  test('a write reaches every open stream of the account as event: preferences, and no stream of another account', async () => {
    const aliceOne = await openStream(t, origin, alice);
    const aliceTwo = await openStream(t, origin, alice);
    const bobs = await openStream(t, origin, bob);
    const subscribed = () =>
      expect(t.context.live.hub.stats().reduce((n, s) => n + s.subscribers, 0)).toBeGreaterThanOrEqual(3);
    await vi.waitFor(subscribed);

    const base = (await request(t, alice).get()).json().version as number;
    const written = await request(t, alice).put({
      version: base,
      preferences: changed({ delay: { enabled: true, seconds: 42 } }),
    });
    expect(written.statusCode).toBe(200);
    await vi.waitFor(() => expect(aliceOne.preferences()).toEqual([written.json()]));
    await vi.waitFor(() => expect(aliceTwo.preferences()).toEqual([written.json()]));

    // Bob's own write reaches Bob's stream: by then Alice's would have too, had it been sent there.
    const bobBase = (await request(t, bob).get()).json().version as number;
    const bobWritten = await request(t, bob).put({ version: bobBase, preferences: DEFAULT_PREFERENCES });
    await vi.waitFor(() => expect(bobs.preferences()).toEqual([bobWritten.json()]));
    expect(aliceOne.preferences()).toHaveLength(1);
    for (const s of [aliceOne, aliceTwo, bobs]) s.close();
  });
}

for (const dialect of dialects) {
  describe(`preferences (${dialect})`, () => {
    usePreferencesApp(dialect);
    describe('versions and conflicts', versionTests);
    describe('what a document may hold', documentContentTests);
    describe('accounts and streams', accountAndStreamTests);
  });
}

describe('preferences rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  test('writes are limited per account and minute', async () => {
    const token = await signUp(t);
    let version = 0;
    let limited = 0;
    for (let i = 0; i < 125; i += 1) {
      const res = await request(t, token).put({ version, preferences: DEFAULT_PREFERENCES });
      if (res.statusCode === 200) version += 1;
      if (res.statusCode === 429) limited += 1;
    }
    expect(version).toBe(120);
    expect(limited).toBe(5);
    // Another account still writes.
    expect(
      (await request(t, await signUp(t)).put({ version: 0, preferences: DEFAULT_PREFERENCES })).statusCode,
    ).toBe(200);
  });
});

describe.skipIf(!TEST_REDIS_URL)(
  'preferences across two instances sharing Redis (set TEST_REDIS_URL to run)',
  () => {
    const prefix = `flaglight-test:${crypto.randomBytes(5).toString('hex')}:`;
    let a: TestApp;
    let b: TestApp;
    let originB: string;
    beforeAll(async () => {
      const timers = createSystemTimers(() => Date.now());
      const env = { REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix };
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

    test('a write on instance A reaches the stream held by instance B', async () => {
      const token = await signUp(a);
      // The ticket (in Redis) names the account; instance B holds the stream.
      const stream = await openStream(b, originB, token, a);
      await vi.waitFor(() =>
        expect(b.context.live.hub.stats().reduce((n, s) => n + s.subscribers, 0)).toBeGreaterThanOrEqual(1),
      );
      const written = await request(a, token).put({ version: 0, preferences: changed() });
      expect(written.statusCode).toBe(200);
      await vi.waitFor(() => expect(stream.preferences()).toEqual([written.json()]));
      stream.close();
    });
  },
);
