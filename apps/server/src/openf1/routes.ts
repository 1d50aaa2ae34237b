import { api, type ErrorCode } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromContract } from '../http/contract-route.js';
import { HttpError } from '../http/errors.js';
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

const CODES: Record<OpenF1ErrorKind, ErrorCode> = {
  unauthorized: 'upstream_unavailable',
  'rate-limited': 'rate_limited',
  'invalid-json': 'upstream_unavailable',
  'bad-request': 'invalid_input',
  'server-error': 'upstream_unavailable',
  timeout: 'upstream_timeout',
  network: 'upstream_unavailable',
};

/** SPEC §7: `GET /api/openf1/proxy/v1/...`, the three endpoints the app reads, cached and coalesced. */
export async function openf1Routes(fastify: FastifyInstance, opts: { proxy: OpenF1Proxy }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.route({
    ...fromContract(api.live.openf1Proxy, { rateLimitPerMinute: PROXY_RATE_LIMIT_PER_MINUTE }),
    handler: async (request, reply) => {
      const [pathPart = '', ...rest] = request.url.slice('/api/openf1/proxy/'.length).split('?');
      const parsed = parseProxyRequest(pathPart, rest.join('?'));
      if (!parsed.ok) throw new HttpError(400, parsed.error, { success: false, message: parsed.error });
      const result = await opts.proxy.get(parsed.endpoint, parsed.upstreamPath);
      if (!result.ok) {
        throw new HttpError(
          STATUS[result.kind],
          ERROR_TITLES[result.kind],
          { success: false, message: result.message },
          CODES[result.kind],
        );
      }
      // OpenF1 answers arrays of records; anything else is a fault upstream, not a 500 here.
      if (!Array.isArray(result.data)) {
        throw new HttpError(502, ERROR_TITLES['invalid-json'], { success: false }, 'upstream_unavailable');
      }
      void reply.header('cache-control', 'no-store');
      return result.data as Array<Record<string, unknown>>;
    },
  });
}
