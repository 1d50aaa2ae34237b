import { vi } from 'vitest';

type Reply = { status?: number; body?: unknown } | Error;
type Handler = (body: unknown, init: RequestInit | undefined) => Reply | Promise<Reply>;

/**
 * Stubs the API at its boundary (window.fetch): each `METHOD /path` answers with a JSON body,
 * or throws the given Error as a network failure. Unstubbed calls answer 404.
 */
export function stubApi(routes: Record<string, Handler | Reply>) {
  const calls: { route: string; body: unknown; headers: Record<string, string> }[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    const route = `${init?.method ?? 'GET'} ${path}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ route, body, headers: (init?.headers ?? {}) as Record<string, string> });
    const entry = routes[route];
    const reply =
      typeof entry === 'function'
        ? await entry(body, init)
        : (entry ?? { status: 404, body: { error: 'Not found', code: 'not_found' } });
    if (reply instanceof Error) throw reply;
    return new Response(JSON.stringify(reply.body ?? {}), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return { spy, calls };
}

export const DEMO_CONFIG = {
  mode: 'demo',
  turnstile: { kind: 'demo', siteKey: 'demo-site', tokenUrl: '/sims/turnstile/token' },
  lifxApiUrl: '/sims/lifx/v1',
  supportEmail: 'support@example.com',
};
