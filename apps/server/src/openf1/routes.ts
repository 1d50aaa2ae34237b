import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/service.js';
import type { OpenF1ErrorKind } from './client.js';
import { parseProxyRequest, type OpenF1Proxy } from './proxy.js';

/** Proxy answers per client and minute: generous for a dashboard, small against abuse. */
export const PROXY_RATE_LIMIT_PER_MINUTE = 120;

const ERROR_TITLES: Record<OpenF1ErrorKind, string> = {
  unauthorized: 'OpenF1 refused the request',
  'rate-limited': 'Rate limited by OpenF1',
  'invalid-json': 'Invalid JSON from OpenF1',
  'bad-request': 'OpenF1 rejected the query',
  'server-error': 'OpenF1 failed',
  timeout: 'OpenF1 timed out',
  network: 'OpenF1 unreachable',
};

/**
 * Upstream failures are not the client's fault: 502, except a 429 (passed on, so clients back
 * off) and a query OpenF1 rejects (400). An upstream 401 (the live-session lock) is a 502 with
 * SPEC §8's text, not a 401: the web client treats a 401 as its own sign-in having expired.
 */
const STATUS: Record<OpenF1ErrorKind, number> = {
  unauthorized: 502,
  'rate-limited': 429,
  'invalid-json': 502,
  'bad-request': 400,
  'server-error': 502,
  timeout: 504,
  network: 502,
};

/** SPEC §7: `GET /api/openf1/proxy/v1/...`, the three endpoints the app reads, cached and coalesced. */
export async function openf1Routes(app: FastifyInstance, opts: { auth: AuthService; proxy: OpenF1Proxy }) {
  app.get(
    '/api/openf1/proxy/*',
    { config: { rateLimit: { max: PROXY_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } } },
    async (request, reply) => {
      await opts.auth.authenticate(request.headers.authorization);
      const [pathPart = '', ...rest] = request.url.slice('/api/openf1/proxy/'.length).split('?');
      const parsed = parseProxyRequest(pathPart, rest.join('?'));
      if (!parsed.ok)
        return reply.status(400).send({ success: false, error: parsed.error, message: parsed.error });
      const result = await opts.proxy.get(parsed.endpoint, parsed.upstreamPath);
      if (result.ok) return reply.header('cache-control', 'no-store').send(result.data);
      return reply
        .status(STATUS[result.kind])
        .send({ success: false, error: ERROR_TITLES[result.kind], message: result.message });
    },
  );
}
