import { TRACKSIDE, type LookSet } from '@flaglight/core';
import { DEMO_GOVEE_API_KEY, type GoveeSimControl } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { buildTestApp, dialects, type TestApp } from './helper.js';

/** Red a steady blue at 40 %, fastest lap left alone: the issue's example. */
const BLUE_RED: LookSet = {
  ...TRACKSIDE,
  flags: {
    ...TRACKSIDE.flags,
    red: {
      kind: 'show',
      color: { name: 'blue', hue: 240, saturation: 1 },
      brightness: 40,
      effect: { kind: 'steady' },
      effectMs: 1000,
      settleBrightness: 40,
    },
    fastest_lap: { kind: 'leave' },
  },
};

describe.each(dialects)("Govee cloud plays the account's stored looks (%s)", (dialect) => {
  let t: TestApp;
  let sim: GoveeSimControl;
  let token = '';

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  async function storeLooks(looks: LookSet | undefined): Promise<void> {
    const current = (await call('GET', '/api/me/preferences')).json();
    const preferences = { ...current.preferences, looks };
    const res = await call('PUT', '/api/me/preferences', { version: current.version, preferences });
    expect(res.statusCode).toBe(200);
  }

  beforeAll(async () => {
    t = await buildTestApp({ dialect, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    sim = t.context.sims!.govee.control;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: `govee-looks-${dialect}@example.com`,
        password: 'Sunday!Race1',
        plan: 'trial',
        turnstileToken: t.context.sims!.turnstile.control.issueToken(),
      },
    });
    token = signup.json().token as string;
    expect((await call('POST', '/api/govee/connect', { apiKey: DEMO_GOVEE_API_KEY })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  test('red shows the stored blue at 40 %; a left fastest lap sends nothing; Trackside again plays red', async () => {
    const id = sim.devices()[0]!.device;
    await storeLooks(BLUE_RED);
    const red = (await call('POST', '/api/govee/lights/flag', { lightIds: [id], flag: 'red' })).json();
    expect(red).toMatchObject({ sent: true, note: 'solid blue' });
    await vi.waitFor(
      () => expect(sim.device(id)).toMatchObject({ hex: '#0000ff', brightness: 40, on: true }),
      {
        timeout: paced(5000),
      },
    );
    sim.resetRequests();
    const lap = (
      await call('POST', '/api/govee/lights/flag', { lightIds: [id], flag: 'fastest_lap' })
    ).json();
    expect(lap).toMatchObject({ sent: false, note: expect.stringContaining('left as they are') });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sim.requests().filter((r) => r.path.endsWith('/device/control'))).toEqual([]);
    // A change of looks mid-session applies to the next flag.
    await storeLooks(undefined);
    await call('POST', '/api/govee/lights/flag', { lightIds: [id], flag: 'red' });
    await vi.waitFor(() => expect(sim.device(id)).toMatchObject({ hex: '#ff0000', brightness: 50 }), {
      timeout: paced(5000),
    });
  });
});
