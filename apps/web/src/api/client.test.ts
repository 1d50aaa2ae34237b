import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError, apiRequest } from './client';

function stubFetch(status: number, body: unknown, contentType = 'application/json') {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'content-type': contentType },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('apiRequest', () => {
  test('adds the stored token as a bearer header and parses JSON', async () => {
    localStorage.setItem('auth_token', 'secret-token');
    const fetchMock = stubFetch(200, { ok: true });
    await expect(apiRequest('/api/health')).resolves.toEqual({ ok: true });
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer secret-token');
  });

  test('sends no authorization header without a session', async () => {
    const fetchMock = stubFetch(200, {});
    await apiRequest('/api/health');
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
  });

  test('posts a body as JSON', async () => {
    const fetchMock = stubFetch(200, { token: 't' });
    await apiRequest('/auth/login', { body: { email: 'a@b.co', password: 'x' } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"email":"a@b.co","password":"x"}');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  test("throws an ApiError carrying the server's { error } text and status", async () => {
    stubFetch(401, { error: 'Invalid email or password', needsVerification: false });
    const error = await apiRequest('/auth/login', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 401,
      message: 'Invalid email or password',
      body: { error: 'Invalid email or password', needsVerification: false },
    });
  });

  test('falls back to a generic message when the error body is not JSON', async () => {
    stubFetch(502, '<html>Bad gateway</html>'.repeat(20), 'text/html');
    await expect(apiRequest('/api/f1/current')).rejects.toThrow('Request failed (502)');
  });
});
