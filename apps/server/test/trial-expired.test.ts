import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './helper.js';
import { signInExpiredTrial, signUp } from './live-helpers.js';

/**
 * An ended trial must not keep full API access behind the web's modal. The
 * route × plan matrix (contract.test.ts) covers every route; these are the paths around it.
 */
const ENDED = {
  error: 'Your free trial has ended. Upgrade to keep following live sessions.',
  code: 'trial_expired',
};

describe('an ended trial', () => {
  let t: TestApp;
  let expired: string;
  let running: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    expired = await signInExpiredTrial(t);
    running = await signUp(t);
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  test('cannot follow a live session: no stream ticket, no state, no OpenF1 proxy', async () => {
    for (const [method, url] of [
      ['POST', '/api/live/ticket'],
      ['GET', '/api/live/state'],
      ['GET', '/api/openf1/proxy/v1/sessions?session_key=latest'],
    ] as const) {
      const res = await call(expired, method, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual(ENDED);
      expect((await call(running, method, url)).statusCode, `${url} on a running trial`).not.toBe(403);
    }
  });

  test('cannot set Hue lights freely through the server, but can still play test flags and manage the connection', async () => {
    // The test flag buttons and replays stay free (their flags are the caller's own choice).
    const flag = await call(expired, 'POST', '/hue/lights/flag', { flag: 'red', lightIds: ['1'] });
    expect(flag.json().code).not.toBe('trial_expired');
    const state = await call(expired, 'PUT', '/hue/lights/1/state', { on: true });
    expect(state.json()).toEqual(ENDED);
    for (const url of ['/auth/hue/status', '/hue/diagnostics']) {
      const res = await call(expired, 'GET', url);
      expect(res.statusCode, url).not.toBe(403);
    }
  });

  test('still watches replays: a ticket for the replay opens its stream, and only that stream', async () => {
    const replays = await t.app.inject({ method: 'GET', url: '/api/replays' });
    const id = replays.json<{ sessions: Array<{ id: string }> }>().sessions[0]!.id;
    const replay = await call(expired, 'POST', '/api/replays', { id });
    expect(replay.statusCode).toBe(200);
    const { sessionKey } = replay.json<{ sessionKey: number }>();

    const state = await call(expired, 'GET', `/api/live/state?sessionKey=${sessionKey}`);
    expect(state.statusCode).toBe(200);
    const issued = await call(expired, 'POST', `/api/live/ticket?sessionKey=${sessionKey}`);
    expect(issued.statusCode).toBe(200);
    const { ticket } = issued.json<{ ticket: string }>();

    // The replay's ticket does not open the live session.
    const live = await t.app.inject({ method: 'GET', url: `/api/live/events?ticket=${ticket}` });
    expect(live.statusCode).toBe(403);
    expect(live.json().code).toBe('forbidden');

    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const again = (await call(expired, 'POST', `/api/live/ticket?sessionKey=${sessionKey}`)).json<{
      ticket: string;
    }>();
    const controller = new AbortController();
    const stream = await fetch(`${origin}/api/live/events?ticket=${again.ticket}&sessionKey=${sessionKey}`, {
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    controller.abort();
  });
});
