import { Writable } from 'node:stream';
import {
  DEMO_GOVEE_API_KEY,
  goveeKeyId,
  startGoveeSim,
  type GoveeSimControl,
  type RunningGoveeSim,
} from '@flaglight/sims';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { createLogger } from '../src/http/logging.js';
import { buildTestApp, dialects, type TestApp } from './helper.js';

const STRONG = 'Sunday!Race1';
const OTHER_KEY = 'other-account-govee-key-7f3a';
const PACING_KEY = 'pacing-test-govee-key-91c2';
const KEY_A = 'account-a-govee-key-3d81';
const KEY_B = 'account-b-govee-key-c5e0';

function captureLog() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'trace' }, { destination }) };
}

// One app per dialect, shared by every theme below and run in order.
let dialect: (typeof dialects)[number];
let log: ReturnType<typeof captureLog>;
let t: TestApp;
let sim: GoveeSimControl;
/** Every answer body the tests saw: the key must never be in one. */
let bodies: string[] = [];
let counter = 0;

function useGoveeApp(suiteDialect: (typeof dialects)[number]) {
  beforeAll(async () => {
    dialect = suiteDialect;
    log = captureLog();
    bodies = [];
    counter = 0;
    t = await buildTestApp({
      dialect,
      logger: log.logger,
      logRequests: true,
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    });
    sim = t.context.sims!.govee.control;
  });
  afterAll(async () => {
    await t.close();
    const everything = [...bodies, ...log.lines].join('\n');
    expect(everything).not.toContain(DEMO_GOVEE_API_KEY);
    expect(everything).not.toContain(OTHER_KEY);
    for (const key of [PACING_KEY, KEY_A, KEY_B]) expect(everything).not.toContain(key);
  });
  beforeEach(() => sim.reset());
}

async function signup(): Promise<string> {
  counter += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: {
      email: `govee${counter}-${dialect}@example.com`,
      password: STRONG,
      plan: 'trial',
      turnstileToken: t.context.sims!.turnstile.control.issueToken(),
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().token as string;
}

function as(token: string) {
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    bodies.push(res.body);
    return res;
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: object) => call('POST', url, payload),
  };
}

async function connected(key = DEMO_GOVEE_API_KEY) {
  const user = as(await signup());
  const res = await user.post('/api/govee/connect', { apiKey: key });
  expect(res.statusCode).toBe(200);
  const lights = (await user.get('/api/govee/lights')).json().lights as { id: string }[];
  return { user, ids: lights.map((l) => l.id) };
}

const controls = () => sim.requests().filter((r) => r.path.endsWith('/device/control'));
const idle = () =>
  vi.waitFor(
    () => {
      const pending = controls().length;
      return new Promise<void>((resolve, reject) =>
        setTimeout(() => (controls().length === pending ? resolve() : reject(new Error('busy'))), 400),
      );
    },
    { timeout: paced(8000), interval: 50 },
  );

function connectingTests() {
  test('a wrong key is refused with a clear error and nothing is stored', async () => {
    const user = as(await signup());
    const res = await user.post('/api/govee/connect', { apiKey: 'not-a-govee-key' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'govee_key_refused',
      error: expect.stringContaining('did not accept'),
    });
    expect((await user.get('/api/govee/status')).json()).toEqual({ connected: false });
    const flag = await user.post('/api/govee/lights/flag', { lightIds: ['AA:BB'], flag: 'red' });
    expect(flag.statusCode).toBe(403);
    expect(flag.json().code).toBe('govee_not_connected');
  });

  test('Govee down or rate limiting at connect: clear errors', async () => {
    const user = as(await signup());
    sim.fault({ kind: 'down' });
    const down = await user.post('/api/govee/connect', { apiKey: DEMO_GOVEE_API_KEY });
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatchObject({
      code: 'upstream_unavailable',
      error: expect.stringContaining('could not be reached'),
    });
    sim.fault({ kind: 'rate-limit', retryAfterS: 30 });
    const limited = await user.post('/api/govee/connect', { apiKey: DEMO_GOVEE_API_KEY });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', retryAfterS: 30 });
    const bad = await user.post('/api/govee/connect', { apiKey: 'line\nbreak' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('invalid_input');
  });

  test('the key is stored sealed and never answered', async () => {
    const { user, ids } = await connected();
    expect(ids).toHaveLength(6);
    const rows = await t.context.db.selectFrom('govee_connections').select('api_key').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.api_key).not.toContain(DEMO_GOVEE_API_KEY);
    const diagnostics = await user.get('/api/govee/diagnostics');
    expect(diagnostics.statusCode).toBe(200);
    expect(diagnostics.json()).toMatchObject({
      connected: true,
      lights: 6,
      budget: { dailyLimit: 10_000, perDeviceMinuteLimit: 10, mode: 'normal' },
    });
  });
}

function flagPacingTests() {
  test('a flag shows its settled colour; the next flag costs one call per light', async () => {
    const { user, ids } = await connected();
    const two = ids.slice(0, 2);
    const red = await user.post('/api/govee/lights/flag', { lightIds: two, flag: 'red' });
    expect(red.json()).toMatchObject({
      success: true,
      sent: true,
      mode: 'normal',
      note: expect.stringContaining('solid red'),
    });
    await vi.waitFor(() =>
      expect(sim.device(two[1]!)).toMatchObject({ hex: '#ff0000', brightness: 50, on: true }),
    );
    await idle();
    // First flag: colour, power, brightness (nothing known of the lights yet).
    expect(controls()).toHaveLength(6);
    sim.resetRequests();
    await user.post('/api/govee/lights/flag', { lightIds: two, flag: 'green' });
    await vi.waitFor(() => expect(sim.device(two[0]!)?.hex).toBe('#00ff00'));
    await idle();
    expect(
      controls().map(
        (r) => (r.body as { payload: { capability: { instance: string } } }).payload.capability.instance,
      ),
    ).toEqual(['colorRgb', 'colorRgb']);
    // Chequered is white (no flashing on the cloud), full brightness.
    const chequered = await user.post('/api/govee/lights/flag', { lightIds: two, flag: 'checkered' });
    expect(chequered.json().note).toContain('solid white');
    await vi.waitFor(() => expect(sim.device(two[0]!)).toMatchObject({ hex: '#ffffff', brightness: 100 }));
  });

  test('a burst of flags sends only the latest', async () => {
    const { user, ids } = await connected();
    for (const flag of ['yellow', 'red', 'vsc', 'green'])
      await user.post('/api/govee/lights/flag', { lightIds: ids, flag });
    await vi.waitFor(() => expect(sim.devices().every((d) => d.hex === '#00ff00')).toBe(true));
    await idle();
    const colours = controls().filter((r) => JSON.stringify(r.body).includes('colorRgb'));
    expect(colours).toHaveLength(ids.length);
  });

  test('a 429 is waited out for its Retry-After, then the look arrives', async () => {
    const { user, ids } = await connected();
    sim.fault({ kind: 'rate-limit', retryAfterS: 1 });
    const started = Date.now();
    await user.post('/api/govee/lights/flag', { lightIds: [ids[0]!], flag: 'red' });
    await vi.waitFor(() => expect(sim.device(ids[0]!)?.hex).toBe('#ff0000'), { timeout: paced(5000) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const diagnostics = (await user.get('/api/govee/diagnostics')).json();
    expect(diagnostics.lastError.message).toContain('slow down');
  });

  test('no more than 10 calls per device per minute, however many flags', async () => {
    // A key of its own: what earlier tests' accounts still send does not count here.
    sim.addKey(PACING_KEY);
    const { user, ids } = await connected(PACING_KEY);
    const flags = [
      'red',
      'green',
      'yellow',
      'green',
      'red',
      'green',
      'checkered',
      'green',
      'red',
      'green',
      'yellow',
      'green',
    ];
    for (const flag of flags) {
      await user.post('/api/govee/lights/flag', { lightIds: [ids[0]!], flag });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = controls().filter((r) => r.device === ids[0] && r.keyId === goveeKeyId(PACING_KEY));
    // 3 for the first flag, then one per change until the minute's 10 are spent; the rest waits.
    expect(sent).toHaveLength(10);
    expect(sent.every((r) => r.status === 200)).toBe(true);
    expect((await user.get('/api/govee/diagnostics')).json().pendingLights).toBe(1);
  });

  test('a low daily budget degrades to track-wide flags, colour only, then stops', async () => {
    sim.setLimits({ perDay: 21 });
    const { user, ids } = await connected();
    // Connect and list: 2 of 21. The first flag on six lights: 18 more, leaving 1 (under 10 %).
    await user.post('/api/govee/lights/flag', { lightIds: ids, flag: 'green' });
    await vi.waitFor(() => expect(sim.devices().every((d) => d.hex === '#00ff00')).toBe(true));
    await idle();
    const yellow = (await user.post('/api/govee/lights/flag', { lightIds: ids, flag: 'yellow' })).json();
    expect(yellow).toMatchObject({
      sent: false,
      mode: 'track_only',
      note: expect.stringContaining('track-wide'),
    });
    const red = (await user.post('/api/govee/lights/flag', { lightIds: ids, flag: 'red' })).json();
    expect(red).toMatchObject({
      sent: true,
      mode: 'track_only',
      note: expect.stringContaining('colour only'),
    });
    await idle();
    const diagnostics = (await user.get('/api/govee/diagnostics')).json();
    expect(diagnostics.budget).toMatchObject({ dailyLimit: 21, dailyRemaining: 0, mode: 'exhausted' });
    expect(diagnostics.lastError.message).toContain('budget is used up');
    // Govee was never asked past its budget.
    expect(sim.requests().every((r) => r.status !== 429)).toBe(true);
    const green = (await user.post('/api/govee/lights/flag', { lightIds: ids, flag: 'green' })).json();
    expect(green).toMatchObject({ sent: false, mode: 'exhausted' });
  });
}

function keyPerAccountTests() {
  test('one account’s key is never used for another', async () => {
    // Keys of their own, so what earlier tests' accounts still send is told apart.
    sim.addKey(KEY_A);
    sim.addKey(KEY_B);
    const a = await connected(KEY_A);
    const b = await connected(KEY_B);
    const c = as(await signup());
    await a.user.post('/api/govee/lights/flag', { lightIds: [a.ids[0]!], flag: 'red' });
    await b.user.post('/api/govee/lights/flag', { lightIds: [b.ids[1]!], flag: 'green' });
    const none = await c.post('/api/govee/lights/flag', { lightIds: [a.ids[2]!], flag: 'red' });
    expect(none.statusCode).toBe(403);
    await vi.waitFor(() => expect(sim.device(b.ids[1]!)?.hex).toBe('#00ff00'));
    await vi.waitFor(() => expect(sim.device(a.ids[0]!)?.hex).toBe('#ff0000'));
    await idle();
    const [idA, idB] = [goveeKeyId(KEY_A), goveeKeyId(KEY_B)];
    const ours = controls().filter((r) => r.keyId === idA || r.keyId === idB);
    expect(ours.length).toBeGreaterThanOrEqual(2);
    for (const request of ours) expect(request.keyId).toBe(request.device === a.ids[0] ? idA : idB);
    expect(ours.every((r) => r.device === a.ids[0] || r.device === b.ids[1])).toBe(true);
  });

  test('a sealed key copied to another account’s row does not open there', async () => {
    const a = await connected();
    const token = await signup();
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    const userId = String(me.json().user.id);
    const [row] = await t.context.db.selectFrom('govee_connections').select('api_key').execute();
    const now = new Date().toISOString();
    await t.context.db
      .insertInto('govee_connections')
      .values({ user_id: userId, api_key: row!.api_key, created_at: now, updated_at: now })
      .execute();
    const thief = as(token);
    expect((await thief.get('/api/govee/status')).json()).toEqual({ connected: false });
    const flag = await thief.post('/api/govee/lights/flag', { lightIds: [a.ids[0]!], flag: 'red' });
    expect(flag.json().code).toBe('govee_not_connected');
  });

  test('a key Govee stops accepting is forgotten and Govee shows as disconnected', async () => {
    sim.addKey(OTHER_KEY);
    const { user, ids } = await connected(OTHER_KEY);
    sim.revokeKey(OTHER_KEY);
    await user.post('/api/govee/lights/flag', { lightIds: [ids[0]!], flag: 'red' });
    await vi.waitFor(async () =>
      expect((await user.get('/api/govee/status')).json()).toEqual({ connected: false }),
    );
    const again = await user.post('/api/govee/lights/flag', { lightIds: [ids[0]!], flag: 'red' });
    expect(again.json().code).toBe('govee_not_connected');
  });
}

function lightRequestTests() {
  test('unknown lights and bad bodies are refused', async () => {
    const { user } = await connected();
    const unknown = await user.post('/api/govee/lights/flag', { lightIds: ['00:11:22'], flag: 'red' });
    expect(unknown.statusCode).toBe(404);
    const badFlag = await user.post('/api/govee/lights/flag', { lightIds: ['00:11:22'], flag: 'purple' });
    expect(badFlag.statusCode).toBe(400);
    const badState = await user.post('/api/govee/lights/state', { lightIds: ['00:11:22'], brightness: 0 });
    expect(badState.statusCode).toBe(400);
    expect(badState.json().code).toBe('invalid_input');
  });

  test('set state and disconnect', async () => {
    const { user, ids } = await connected();
    const res = await user.post('/api/govee/lights/state', {
      lightIds: [ids[3]!],
      color: { r: 0, g: 0, b: 255 },
      brightness: 80,
    });
    expect(res.json()).toEqual({ success: true, lights: 1 });
    await vi.waitFor(() => expect(sim.device(ids[3]!)).toMatchObject({ hex: '#0000ff', brightness: 80 }));
    expect((await user.post('/api/govee/disconnect')).json()).toEqual({ success: true });
    expect((await user.get('/api/govee/status')).json()).toEqual({ connected: false });
    expect((await user.get('/api/govee/diagnostics')).json()).toMatchObject({
      connected: false,
      reason: 'not_connected',
    });
  });
}

describe.each(dialects)('Govee cloud through the server (%s)', (suiteDialect) => {
  useGoveeApp(suiteDialect);
  describe('connecting a key', connectingTests);
  describe('flags and their pacing', flagPacingTests);
  describe("each account's own key", keyPerAccountTests);
  describe('light requests and disconnect', lightRequestTests);
});

describe('Govee cloud at GOVEE_API_URL: 10 lights, each call answered in 500 ms', () => {
  let t: TestApp;
  let govee: RunningGoveeSim;
  beforeAll(async () => {
    govee = await startGoveeSim({ deviceCount: 10, latencyMs: 500 });
    t = await buildTestApp({ env: { GOVEE_API_URL: govee.url } });
  });
  afterAll(async () => {
    await t.close();
    await govee.close();
  });

  test('a flag reaches all 10 lights in one round trip (lights are sent in parallel), 1 call each', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: 'ten-lights@example.com',
        password: STRONG,
        plan: 'trial',
        turnstileToken: t.context.sims!.turnstile.control.issueToken(),
      },
    });
    const headers = { authorization: `Bearer ${signup.json().token as string}` };
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers, payload });
    expect((await post('/api/govee/connect', { apiKey: DEMO_GOVEE_API_KEY })).json()).toEqual({
      success: true,
      lights: 10,
    });
    const ids = govee.control.devices().map((d) => d.device);
    // The first flag learns each light's state: 3 calls a light.
    await post('/api/govee/lights/flag', { lightIds: ids, flag: 'green' });
    await vi.waitFor(() => expect(govee.control.devices().every((d) => d.brightness === 50)).toBe(true), {
      timeout: paced(5000),
    });
    govee.control.resetRequests();
    const started = Date.now();
    await post('/api/govee/lights/flag', { lightIds: ids, flag: 'red' });
    await vi.waitFor(() => expect(govee.control.devices().every((d) => d.hex === '#ff0000')).toBe(true), {
      timeout: paced(5000),
      interval: 20,
    });
    const elapsed = Date.now() - started;
    // Coalescing window (250 ms) + one 500 ms answer; one at a time would take 5 s.
    expect(elapsed).toBeLessThan(1500);
    expect(govee.control.requests().filter((r) => r.path.endsWith('/device/control'))).toHaveLength(10);
  });
});
