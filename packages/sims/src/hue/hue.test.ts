import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { startHueSim, type RunningHueSim } from './server.js';
import { DEMO_HUE_APPLICATION_KEY } from './state.js';

const sim: RunningHueSim = await startHueSim({ redirectUri: 'http://app.test/auth/hue/callback' });
afterAll(() => sim.close());
beforeEach(() => sim.control.reset());

const key = { 'hue-application-key': DEMO_HUE_APPLICATION_KEY };
const basic = (id = sim.clientId, secret = sim.clientSecret) => ({
  Authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
  'Content-Type': 'application/x-www-form-urlencoded',
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    redirect: 'manual',
    headers:
      body === undefined || typeof body === 'string'
        ? headers
        : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // HTML
  }
  return { status: res.status, headers: res.headers, body: parsed as never };
}

async function authorize(): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
  const redirect = await call(
    'GET',
    '/v2/oauth2/decision?decision=allow&client_id=demo-hue-client&state=s1&redirect_uri=http://app.test/cb',
  );
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
  return (await call('POST', '/v2/oauth2/token', `grant_type=authorization_code&code=${code}`, basic())).body;
}

describe('Hue bridge (CLIP v2)', () => {
  test('4 lights with gamut C in {errors, data}', async () => {
    const res = await call('GET', '/clip/v2/resource/light', undefined, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ errors: [], data: expect.any(Array) });
    const data = (res.body as { data: Record<string, unknown>[] }).data;
    expect(data).toHaveLength(4);
    expect(data[0]).toMatchObject({
      type: 'light',
      metadata: { name: 'Hue Go' },
      on: { on: true },
      dimming: { brightness: 80 },
      color: { gamut_type: 'C', gamut: { red: { x: 0.6915, y: 0.3083 } } },
    });
  });

  test('403 without an application key, 401 with a wrong one', async () => {
    expect((await call('GET', '/clip/v2/resource/light')).status).toBe(403);
    const bad = await call('GET', '/clip/v2/resource/light', undefined, { 'hue-application-key': 'nope' });
    expect(bad).toMatchObject({ status: 401, body: { errors: [{ description: 'unauthorized user' }] } });
  });

  test('PUT a light: on, dimming, xy (clamped into gamut C), dynamics; state reads back', async () => {
    const [light] = sim.control.lights();
    const res = await call(
      'PUT',
      `/clip/v2/resource/light/${light!.id}`,
      {
        on: { on: true },
        dimming: { brightness: 100 },
        color: { xy: { x: 0.7006, y: 0.2993 } },
        dynamics: { duration: 200 },
      },
      key,
    );
    expect(res.body).toEqual({ errors: [], data: [{ rid: light!.id, rtype: 'light' }] });
    const after = sim.control.light(light!.id)!;
    expect(after).toMatchObject({ on: true, brightness: 1, durationMs: 200 });
    expect(after.xy.x).toBeCloseTo(0.6915, 3);
    expect(after.hex).toMatch(/^#ff/);
    const one = await call('GET', `/clip/v2/resource/light/${light!.id}`, undefined, key);
    expect((one.body as { data: { dimming: { brightness: number } }[] }).data[0]!.dimming.brightness).toBe(
      100,
    );
  });

  test('bad values are 400 with errors; an unknown light is 404', async () => {
    const [light] = sim.control.lights();
    const bad = await call(
      'PUT',
      `/clip/v2/resource/light/${light!.id}`,
      { dimming: { brightness: 150 } },
      key,
    );
    expect(bad).toMatchObject({
      status: 400,
      body: { errors: [{ description: expect.stringContaining('dimming') }] },
    });
    expect((await call('PUT', '/clip/v2/resource/light/nope', { on: { on: false } }, key)).status).toBe(404);
  });

  test('pairing: error 101 until the link button is pressed, then username and clientkey', async () => {
    const body = { devicetype: 'flaglight#test', generateclientkey: true };
    expect((await call('POST', '/api', body)).body).toEqual([
      { error: { type: 101, address: '', description: 'link button not pressed' } },
    ]);
    await call('POST', '/_control/link-button');
    const paired = (await call('POST', '/api', body)).body as [
      { success: { username: string; clientkey: string } },
    ];
    expect(paired[0].success).toEqual({
      username: expect.any(String),
      clientkey: expect.stringMatching(/^[0-9A-F]{32}$/),
    });
    const lights = await call('GET', '/clip/v2/resource/light', undefined, {
      'hue-application-key': paired[0].success.username,
    });
    expect(lights.status).toBe(200);
  });

  test('one bridge; each light has a zigbee_connectivity that reports it unreachable on demand', async () => {
    const bridge = await call('GET', '/clip/v2/resource/bridge', undefined, key);
    expect(bridge.status).toBe(200);
    expect((bridge.body as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ type: 'bridge', bridge_id: expect.stringMatching(/^[0-9a-f]{16}$/) }),
    ]);
    const light = sim.control.lights()[1]!;
    expect((await call('POST', '/_control/reachable', { id: light.id, reachable: false })).status).toBe(200);
    expect((await call('POST', '/_control/reachable', { id: 'nope' })).status).toBe(404);
    const lights = (await call('GET', '/clip/v2/resource/light', undefined, key)).body as {
      data: { id: string; owner: { rid: string } }[];
    };
    const owner = lights.data.find((l) => l.id === light.id)!.owner.rid;
    const res = await call('GET', '/clip/v2/resource/zigbee_connectivity', undefined, key);
    const data = (res.body as { data: { owner: { rid: string }; status: string }[] }).data;
    expect(data).toHaveLength(4);
    expect(data.filter((c) => c.status === 'connectivity_issue').map((c) => c.owner.rid)).toEqual([owner]);
    expect((await call('GET', '/clip/v2/resource/bridge')).status).toBe(403);
  });

  test('a light removed in the Hue app leaves the list and answers 404; a newly paired one joins it', async () => {
    const [first] = sim.control.lights();
    expect((await call('POST', '/_control/remove-light', { id: first!.id })).status).toBe(200);
    expect((await call('POST', '/_control/remove-light', { id: first!.id })).status).toBe(404);
    const ids = async () =>
      (
        (await call('GET', '/clip/v2/resource/light', undefined, key)).body as { data: { id: string }[] }
      ).data.map((l) => l.id);
    expect(await ids()).not.toContain(first!.id);
    expect(
      (await call('PUT', `/clip/v2/resource/light/${first!.id}`, { on: { on: true } }, key)).status,
    ).toBe(404);
    const added = await call('POST', '/_control/add-light');
    expect(added.status).toBe(201);
    const id = (added.body as { id: string }).id;
    expect(id).not.toBe(first!.id);
    expect(await ids()).toHaveLength(4);
    expect(await ids()).toContain(id);
    expect((await call('PUT', `/clip/v2/resource/light/${id}`, { on: { on: false } }, key)).status).toBe(200);
    sim.control.reset();
    expect(await ids()).toContain(first!.id);
    expect(await ids()).not.toContain(id);
  });

  test('an offline bridge drops the connection', async () => {
    sim.control.setOffline(true);
    await expect(fetch(`${sim.url}/clip/v2/resource/light`, { headers: key })).rejects.toThrow();
  });
});

describe('Hue remote API', () => {
  test('the authorize page offers Allow and Deny; Deny redirects with access_denied and the state', async () => {
    const page = await call(
      'GET',
      '/v2/oauth2/authorize?client_id=demo-hue-client&response_type=code&state=xyz',
    );
    expect(page.status).toBe(200);
    expect(page.body).toContain('>Allow</button>');
    expect(page.body).toContain('>Deny</button>');
    expect(page.body).toContain('value="http://app.test/auth/hue/callback"');
    const denied = await call(
      'GET',
      '/v2/oauth2/decision?decision=deny&client_id=demo-hue-client&state=xyz&redirect_uri=http://app.test/cb',
    );
    expect(denied.status).toBe(302);
    expect(denied.headers.get('location')).toBe('http://app.test/cb?error=access_denied&state=xyz');
    expect((await call('GET', '/v2/oauth2/authorize?client_id=other&response_type=code')).status).toBe(400);
  });

  test('no open redirect: a redirect_uri off the app origin gets a 400 page and no code', async () => {
    const evil = encodeURIComponent('https://evil.example/steal');
    const page = await call(
      'GET',
      `/v2/oauth2/authorize?client_id=demo-hue-client&response_type=code&state=s1&redirect_uri=${evil}`,
    );
    expect(page.status).toBe(400);
    expect(page.body).toContain('Redirect refused');
    for (const target of [evil, encodeURIComponent('javascript:alert(1)'), 'not%20a%20url']) {
      const refused = await call(
        'GET',
        `/v2/oauth2/decision?decision=allow&client_id=demo-hue-client&state=s1&redirect_uri=${target}`,
      );
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
      expect(refused.body).toContain('Redirect refused');
    }
    // The registered callback's origin and the simulator's own still work.
    const own = await call(
      'GET',
      `/v2/oauth2/decision?decision=deny&client_id=demo-hue-client&state=s1&redirect_uri=${encodeURIComponent(`${sim.url}/cb`)}`,
    );
    expect(own.status).toBe(302);
  });

  test('code → tokens (Basic auth), the code is single use; refresh tokens are single use', async () => {
    const redirect = await call(
      'GET',
      '/v2/oauth2/decision?decision=allow&client_id=demo-hue-client&state=s1&redirect_uri=http://app.test/cb',
    );
    const location = new URL(redirect.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('s1');
    const code = location.searchParams.get('code')!;
    expect(
      (await call('POST', '/v2/oauth2/token', `grant_type=authorization_code&code=${code}`, basic('x', 'y')))
        .status,
    ).toBe(401);
    const tokens = await call(
      'POST',
      '/v2/oauth2/token',
      `grant_type=authorization_code&code=${code}`,
      basic(),
    );
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      expires_in: 604800,
      refresh_token: expect.any(String),
      token_type: 'bearer',
    });
    expect(
      (await call('POST', '/v2/oauth2/token', `grant_type=authorization_code&code=${code}`, basic())).body,
    ).toMatchObject({
      error: 'invalid_grant',
    });
    const rt = (tokens.body as { refresh_token: string }).refresh_token;
    expect(
      (await call('POST', '/v2/oauth2/token', `grant_type=refresh_token&refresh_token=${rt}`, basic()))
        .status,
    ).toBe(200);
    expect(
      (await call('POST', '/v2/oauth2/token', `grant_type=refresh_token&refresh_token=${rt}`, basic()))
        .status,
    ).toBe(400);
    expect((await call('POST', '/v2/oauth2/token', 'grant_type=password', basic())).body).toEqual({
      error: 'unsupported_grant_type',
    });
  });

  test('remote app key: link button by PUT config, then POST /route/api; /route/clip/v2 needs both headers', async () => {
    const { access_token } = await authorize();
    const bearer = { Authorization: `Bearer ${access_token}` };
    expect((await call('POST', '/route/api', { devicetype: 'flaglight#cloud' }, bearer)).body).toMatchObject([
      { error: { type: 101 } },
    ]);
    await call('PUT', '/route/api/0/config', { linkbutton: true }, bearer);
    const paired = (await call('POST', '/route/api', { devicetype: 'flaglight#cloud' }, bearer)).body as [
      { success: { username: string } },
    ];
    const appKey = paired[0].success.username;
    expect((await call('GET', '/route/clip/v2/resource/light', undefined, bearer)).status).toBe(403);
    expect(
      (await call('GET', '/route/clip/v2/resource/light', undefined, { 'hue-application-key': appKey }))
        .status,
    ).toBe(401);
    const both = await call('GET', '/route/clip/v2/resource/light', undefined, {
      ...bearer,
      'hue-application-key': appKey,
    });
    expect((both.body as { data: unknown[] }).data).toHaveLength(4);
    sim.control.expireAccessTokens();
    expect(
      (
        await call('GET', '/route/clip/v2/resource/light', undefined, {
          ...bearer,
          'hue-application-key': appKey,
        })
      ).status,
    ).toBe(401);
    expect(
      (await call('PUT', '/route/api/0/config', { linkbutton: true }, { Authorization: 'Bearer nope' }))
        .status,
    ).toBe(401);
  });

  test('the live page and the JSON it polls', async () => {
    const page = await fetch(`${sim.url}/`);
    expect(await page.text()).toContain('_control/bulbs');
    const bulbs = await call('GET', '/_control/bulbs');
    expect((bulbs.body as { bulbs: { hex: string }[] }).bulbs[0]).toMatchObject({
      label: 'Hue Go',
      hex: expect.stringMatching(/^#[0-9a-f]{6}$/),
    });
  });
});

describe('Hue faults', () => {
  test('a 429 storm on light calls, local and remote, with CLIP error bodies; then it passes', async () => {
    const added = await call('POST', '/_control/faults', {
      kind: 'rate-limit',
      times: 3,
      path: '/clip/v2/resource/light',
    });
    expect(added.status).toBe(201);
    const tokens = await authorize();
    const remote = { Authorization: `Bearer ${tokens.access_token}`, ...key };
    const first = await call(
      'PUT',
      '/clip/v2/resource/light/' + sim.control.lights()[0]!.id,
      { on: { on: true } },
      key,
    );
    expect(first).toMatchObject({ status: 429, body: { errors: [{ description: 'Too many requests' }] } });
    expect((await call('GET', '/route/clip/v2/resource/light', undefined, remote)).status).toBe(429);
    expect((await call('GET', '/clip/v2/resource/light', undefined, key)).status).toBe(429);
    expect((await call('GET', '/clip/v2/resource/light', undefined, key)).status).toBe(200);
    expect((await call('GET', '/_control/faults')).body).toEqual({ faults: [] });
  });

  test('faults leave OAuth, pairing and the control routes alone', async () => {
    sim.control.fault({ kind: 'server-error' });
    const tokens = await authorize();
    expect(tokens.access_token).toEqual(expect.any(String));
    expect((await call('POST', '/api', { devicetype: 'x' })).status).toBe(200);
    expect((await call('GET', '/clip/v2/resource/light', undefined, key)).status).toBe(503);
    expect((await call('DELETE', '/_control/faults')).status).toBe(200);
    expect((await call('GET', '/clip/v2/resource/light', undefined, key)).status).toBe(200);
  });

  test('a slow answer is held, then answered', async () => {
    sim.control.fault({ kind: 'slow', delayMs: 300, times: 1 });
    const started = Date.now();
    expect((await call('GET', '/clip/v2/resource/light', undefined, key)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  test('a cut body is unreadable JSON', async () => {
    sim.control.fault({ kind: 'invalid-json', times: 1 });
    const res = await fetch(`${sim.url}/clip/v2/resource/light`, { headers: key });
    expect(res.status).toBe(200);
    await expect(res.clone().json()).rejects.toThrow();
  });

  test('a revoked application key gets 401 unauthorized user', async () => {
    const pair = await call('POST', '/_control/revoke-key', { key: DEMO_HUE_APPLICATION_KEY });
    expect(pair.status).toBe(200);
    expect(await call('GET', '/clip/v2/resource/light', undefined, key)).toMatchObject({
      status: 401,
      body: { errors: [{ description: 'unauthorized user' }] },
    });
    expect((await call('POST', '/_control/revoke-key', { key: 'nope' })).status).toBe(404);
  });

  test('bad fault bodies are 400 naming the problem', async () => {
    expect(await call('POST', '/_control/faults', { kind: 'meltdown' })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('kind must be one of') },
    });
    expect(await call('POST', '/_control/faults', { kind: 'slow', times: 'many' })).toMatchObject({
      status: 400,
      body: { error: 'times must be a number' },
    });
  });
});
