import { SetupError } from './errors.js';

/** One request to the server's API (JSON both ways); anything but a 2xx fails the set-up. */
export async function call<T>(
  base: string,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new SetupError(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** A fresh trial account, through the Turnstile simulator as the sign-up page goes; its session token. */
export async function signUp(base: string, who: string): Promise<string> {
  const { turnstile } = await call<{ turnstile: { siteKey: string; tokenUrl?: string } }>(
    base,
    'GET',
    '/api/config',
  );
  const bot = await call<{ token: string }>(base, 'POST', turnstile.tokenUrl ?? '/sims/turnstile/token', {
    sitekey: turnstile.siteKey,
    action: 'signup',
  });
  const session = await call<{ token: string }>(base, 'POST', '/auth/signup', {
    email: `bench.${who}.${Date.now().toString(36)}.${process.pid}@example.com`,
    password: 'Checkered1!',
    plan: 'trial',
    turnstileToken: bot.token,
  });
  return session.token;
}
