import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ApiError, apiCall, apiRequest } from './client';

function stubFetch(status: number, body: unknown, contentType = 'application/json') {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(status === 204 ? null : typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'content-type': contentType },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sent(fetchMock: ReturnType<typeof stubFetch>) {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  return { url, init, headers: (init?.headers ?? {}) as Record<string, string> };
}

const user = {
  id: 'u/1',
  email: 'fan@example.com',
  plan: 'trial',
  isAdmin: false,
  createdAt: '2025-03-01T10:00:00.000Z',
};

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('apiCall', () => {
  test('splits the key into method and path and resolves to the parsed body', async () => {
    const fetchMock = stubFetch(200, { users: [user] });
    await expect(apiCall('GET /admin/users')).resolves.toEqual({ users: [user] });
    const { url, init } = sent(fetchMock);
    expect(url).toBe('/admin/users');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
  });

  test('fills path parameters, encoded', async () => {
    const fetchMock = stubFetch(200, { ok: true });
    await apiCall('DELETE /admin/users/:id', { params: { id: 'a/b c' } });
    const { url, init } = sent(fetchMock);
    expect(url).toBe('/admin/users/a%2Fb%20c');
    expect(init?.method).toBe('DELETE');
  });

  test('appends the query, leaving out undefined values', async () => {
    const fetchMock = stubFetch(200, { success: true, sessions: [] });
    await apiCall('GET /api/replays', { query: { year: 2024 } });
    expect(sent(fetchMock).url).toBe('/api/replays?year=2024');

    const again = stubFetch(200, { success: true, sessions: [] });
    await apiCall('GET /api/replays', { query: { year: undefined } });
    expect(sent(again).url).toBe('/api/replays');
  });

  test('sends the body as JSON with the method of the key', async () => {
    const fetchMock = stubFetch(200, { user });
    await apiCall('PUT /admin/users/:id/plan', { params: { id: '7' }, body: { plan: 'lifetime' } });
    const { url, init, headers } = sent(fetchMock);
    expect(url).toBe('/admin/users/7/plan');
    expect(init?.method).toBe('PUT');
    expect(init?.body).toBe('{"plan":"lifetime"}');
    expect(headers['Content-Type']).toBe('application/json');
  });

  test('attaches the stored session token as a bearer header', async () => {
    localStorage.setItem('auth_token', 'secret-token');
    const fetchMock = stubFetch(200, { user });
    await apiCall('GET /api/auth/me');
    expect(sent(fetchMock).headers.Authorization).toBe('Bearer secret-token');
  });

  test('sends a given token instead, and none with token: null', async () => {
    localStorage.setItem('auth_token', 'secret-token');
    const given = stubFetch(200, { user });
    await apiCall('GET /api/auth/me', undefined, { token: 'other-token' });
    expect(sent(given).headers.Authorization).toBe('Bearer other-token');

    const none = stubFetch(200, { token: 't', user });
    await apiCall('POST /auth/login', { body: { email: 'a@b.co', password: 'x' } }, { token: null });
    expect(sent(none).headers.Authorization).toBeUndefined();
  });

  test('sends no authorization header without a session', async () => {
    const fetchMock = stubFetch(200, { ok: true });
    await apiCall('GET /api/health');
    expect(sent(fetchMock).headers.Authorization).toBeUndefined();
  });

  test("a JSON error answer throws an ApiError with the body's code and error text", async () => {
    stubFetch(401, { error: 'Invalid email or password', code: 'unauthenticated', needsVerification: false });
    const error = await apiCall('POST /auth/login', { body: { email: 'a@b.co', password: 'x' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'unauthenticated',
      message: 'Invalid email or password',
      body: { error: 'Invalid email or password', code: 'unauthenticated', needsVerification: false },
    });
  });

  test('the code comes from the body, not the status', async () => {
    stubFetch(400, { error: 'Bot check failed', code: 'bot_check_failed' });
    await expect(
      apiCall('POST /auth/signup', { body: { email: 'a@b.co', password: 'x' } }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'bot_check_failed',
    });
  });

  test('an error body that is not JSON gives a generic message and the code of its status', async () => {
    stubFetch(502, '<html>Bad gateway</html>'.repeat(20), 'text/html');
    const error = await apiCall('GET /api/f1/current').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
      message: 'Request failed (502)',
    });
  });

  test('a 204 or an empty body resolves to undefined', async () => {
    stubFetch(204, null);
    await expect(apiCall('POST /auth/logout')).resolves.toBeUndefined();
    stubFetch(200, '');
    await expect(apiCall('POST /auth/logout')).resolves.toBeUndefined();
  });
});

describe('ApiError', () => {
  test('without a code in the body, the status decides it', () => {
    expect(new ApiError('Too many requests', 429, {}).code).toBe('rate_limited');
    expect(new ApiError('Oops', 500, undefined).code).toBe('internal_error');
    expect(new ApiError('Nope', 418, null).code).toBe('invalid_input');
  });
});

describe('apiRequest (URLs outside the contract)', () => {
  test('posts a body as JSON without a token when asked', async () => {
    localStorage.setItem('auth_token', 'secret-token');
    const fetchMock = stubFetch(200, { token: 't' });
    await expect(
      apiRequest('/sims/turnstile/token', { body: { sitekey: 's' }, token: null }),
    ).resolves.toEqual({ token: 't' });
    const { init, headers } = sent(fetchMock);
    expect(init?.method).toBe('POST');
    expect(headers.Authorization).toBeUndefined();
  });
});
