import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** "1 minute", "45 seconds": the words @fastify/rate-limit's own 429 uses (app.ts). */
function describeWait(seconds: number): string {
  if (seconds >= 60) {
    const minutes = Math.round(seconds / 60);
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * An `onRequest` hook that limits a route per client address and minute, beside the route's own
 * limit (`fromContract`'s, e.g. per account). @fastify/rate-limit checks only the first limiter a
 * request meets (it marks the request), so a second hook of its own would never count: this one
 * counts through `createRateLimit` (the same store: Redis when configured) and answers like every
 * other limit, 429 `rate_limited` with Retry-After. `name` keeps its count apart from other limits.
 */
export function limitPerAddress(fastify: FastifyInstance, options: { name: string; perMinute: number }) {
  const limiter = fastify.createRateLimit({
    max: Math.max(1, options.perMinute),
    timeWindow: '1 minute',
    keyGenerator: (request) => `${options.name}:${normalizeIP(request.ip)}`,
  });
  return async function limitAddress(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const result = await limiter(request);
    if (result.isAllowed || !result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    void reply.header('retry-after', String(seconds));
    throw new HttpError(429, `Too many requests. Please wait ${describeWait(seconds)} and try again.`);
  };
}
