import http from 'node:http';
import { findFreeTcpPort } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './helper.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

// The checkout sends the fan back to the origin the app was opened at, among the
// app's own (PUBLIC_URL and its loopback twins), never to one a request names.
describe('the checkout returns the fan to the origin the app was opened at', () => {
  let t: TestApp;
  let port: number;
  // PUBLIC_URL is left at its default, http://localhost:PORT, as in the demo the tester ran.
  let publicUrl: string;

  beforeAll(async () => {
    port = await findFreeTcpPort();
    t = await buildTestApp({ env: { PORT: String(port), AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    publicUrl = t.config.publicUrl;
    // The checkout simulator posts its signed webhook to 127.0.0.1:PORT, as Stripe would.
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  const sims = () => t.context.sims!;

  /** One request to the app over a real socket on 127.0.0.1, with the headers a browser (or an attacker) sends. */
  function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method, path, headers, setHost: !('host' in headers) },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /** The headers of a fetch from the app's page at `origin`. */
  const fromPage = (origin: string, token?: string) => ({
    host: new URL(origin).host,
    origin,
    referer: `${origin}/`,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });

  async function signUp(origin: string, email: string): Promise<string> {
    const res = await send(
      'POST',
      '/auth/signup',
      { ...fromPage(origin), 'content-type': 'application/json' },
      JSON.stringify({
        email,
        password: 'Secret!123',
        turnstileToken: sims().turnstile.control.issueToken(),
      }),
    );
    expect(res.status).toBe(201);
    return (JSON.parse(res.body) as { token: string }).token;
  }

  async function startCheckout(headers: Record<string, string>) {
    const res = await send('POST', '/api/payments/checkout', headers);
    expect(res.status).toBe(200);
    return JSON.parse(res.body) as { url: string; sessionId: string };
  }

  async function planOf(origin: string, token: string): Promise<string> {
    const res = await send('GET', '/api/auth/me', fromPage(origin, token));
    return (JSON.parse(res.body) as { user: { plan: string } }).user.plan;
  }

  /** The fan on the checkout page at `origin` presses Pay (or Cancel): the form posts, the page answers 303. */
  async function pressOnCheckoutPage(origin: string, pageUrl: string, step: 'complete' | 'cancel') {
    const page = await send('GET', pageUrl, { host: new URL(origin).host, referer: `${origin}/` });
    expect(page.status).toBe(200);
    // Why the origin matters: the page may only send its form, and its redirect, to itself.
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    return send(
      'POST',
      `${pageUrl}/${step}`,
      {
        host: new URL(origin).host,
        origin,
        referer: `${origin}${pageUrl}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      '',
    );
  }

  for (const name of ['127.0.0.1', 'localhost']) {
    test(`a fan who opened the app at http://${name}:PORT pays and is sent back to that origin, upgraded`, async () => {
      const origin = `http://${name}:${port}`;
      const token = await signUp(origin, `payer-${name}@example.com`);
      const { url, sessionId } = await startCheckout(fromPage(origin, token));

      const paid = await pressOnCheckoutPage(origin, url, 'complete');
      expect(paid.status).toBe(303);
      expect(paid.headers.location).toBe(`${origin}/#/dashboard?payment=success&session_id=${sessionId}`);
      expect(new URL(paid.headers.location!).origin).toBe(origin);

      // The simulator's webhook reaches the app over its real port; the return page would also upgrade.
      let plan = await planOf(origin, token);
      for (let i = 0; i < 100 && plan !== 'lifetime'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        plan = await planOf(origin, token);
      }
      expect(plan).toBe('lifetime');
    });

    test(`a fan at http://${name}:PORT who cancels is sent back to that origin, still on trial`, async () => {
      const origin = `http://${name}:${port}`;
      const token = await signUp(origin, `canceller-${name}@example.com`);
      const { url } = await startCheckout(fromPage(origin, token));
      const cancelled = await pressOnCheckoutPage(origin, url, 'cancel');
      expect(cancelled.status).toBe(303);
      expect(cancelled.headers.location).toBe(`${origin}/#/dashboard?payment=cancelled`);
      expect(await planOf(origin, token)).toBe('trial');
    });
  }

  test('a forged Origin, Referer or Host naming another site starts a checkout that returns to PUBLIC_URL', async () => {
    const token = await signUp(publicUrl, 'forger@example.com');
    const auth = { authorization: `Bearer ${token}` };
    const app = `127.0.0.1:${port}`;
    const forgeries: Record<string, string>[] = [
      { host: app, origin: 'https://evil.example' },
      { host: 'evil.example', origin: 'http://evil.example' },
      { host: app, referer: 'https://evil.example/pay-here' },
      { host: 'evil.example' },
      { host: `evil.example:${port}` },
      // Another service on this computer is not the app either.
      { host: app, origin: `http://127.0.0.1:${port + 1}` },
      { host: app, origin: `https://127.0.0.1:${port}` },
      { host: app, origin: 'null' },
      { host: app, origin: 'not a url' },
    ];
    for (const forged of forgeries) {
      const { sessionId } = await startCheckout({ ...forged, ...auth });
      const session = sims().checkout.control.session(sessionId)!;
      expect(session.success_url, JSON.stringify(forged)).toBe(
        `${publicUrl}/#/dashboard?payment=success&session_id={CHECKOUT_SESSION_ID}`,
      );
      expect(session.cancel_url, JSON.stringify(forged)).toBe(`${publicUrl}/#/dashboard?payment=cancelled`);
    }

    // Followed to the end: the fan lands on PUBLIC_URL, never on evil.example.
    const { url, sessionId } = await startCheckout({
      host: 'evil.example',
      origin: 'https://evil.example',
      ...auth,
    });
    const paid = await pressOnCheckoutPage(publicUrl, url, 'complete');
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe(`${publicUrl}/#/dashboard?payment=success&session_id=${sessionId}`);
  });
});
