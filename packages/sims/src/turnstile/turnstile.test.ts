import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTurnstileSim, TURNSTILE_TOKEN_TTL_MS } from './index.js';

describe('Turnstile simulator', () => {
  let now = 1_800_000_000_000;
  let sim: Awaited<ReturnType<typeof startTurnstileSim>>;
  beforeAll(async () => {
    sim = await startTurnstileSim({ now: () => now });
  });
  afterAll(() => sim.close());

  const siteverify = async (body: Record<string, string>, form = false) => {
    const res = await fetch(`${sim.url}/siteverify`, {
      method: 'POST',
      headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
      body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    });
    return (await res.json()) as { success: boolean; 'error-codes': string[] };
  };
  const widgetToken = async () => {
    const res = await fetch(`${sim.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sitekey: sim.siteKey, action: 'login' }),
    });
    return ((await res.json()) as { token: string }).token;
  };

  test('a token from the widget verifies once, then is a duplicate', async () => {
    const token = await widgetToken();
    expect(await siteverify({ secret: sim.secretKey, response: token })).toMatchObject({
      success: true,
      action: 'login',
    });
    expect(await siteverify({ secret: sim.secretKey, response: token })).toEqual({
      success: false,
      'error-codes': ['timeout-or-duplicate'],
    });
  });

  test('form-encoded requests are accepted too', async () => {
    const token = await widgetToken();
    expect((await siteverify({ secret: sim.secretKey, response: token }, true)).success).toBe(true);
  });

  test('a token older than 300 s has expired', async () => {
    const token = sim.control.issueToken();
    now += TURNSTILE_TOKEN_TTL_MS + 1;
    expect((await siteverify({ secret: sim.secretKey, response: token }))['error-codes']).toEqual([
      'timeout-or-duplicate',
    ]);
  });

  test.each([
    [{ response: 'x' }, 'missing-input-secret'],
    [{ secret: 'wrong', response: 'x' }, 'invalid-input-secret'],
    [{ secret: 'demo-secret-key' }, 'missing-input-response'],
    [{ secret: 'demo-secret-key', response: 'made-up' }, 'invalid-input-response'],
  ])('%o fails with %s', async (body, code) => {
    expect(await siteverify(body)).toEqual({ success: false, 'error-codes': [code] });
  });

  test('failures can be forced', async () => {
    sim.control.failNext('internal-error');
    const token = sim.control.issueToken();
    expect((await siteverify({ secret: sim.secretKey, response: token }))['error-codes']).toEqual([
      'internal-error',
    ]);
    expect((await siteverify({ secret: sim.secretKey, response: token })).success).toBe(true);
  });

  test('an unknown site key gets no token', async () => {
    const res = await fetch(`${sim.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sitekey: 'other' }),
    });
    expect(res.status).toBe(400);
  });
});
