import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type Clock, delay } from '../shared/clock.js';
import { type LifxState } from './state.js';

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic?.[1]) return Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  return undefined;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The hooks in front of every `/v1/*` call: the request log, the token check (401), the
 * per-token budget with its `X-RateLimit-*` headers (429), then any queued failure or hang.
 * `prefixLength` is the length of the prefix the simulator is mounted under.
 */
export function registerLifxApiGuard(
  api: FastifyInstance,
  state: LifxState,
  now: Clock,
  prefixLength: number,
): void {
  api.addHook('onResponse', async (request, reply) => {
    state.log.push({
      method: request.method,
      path: safeDecode(request.url.slice(prefixLength).split('?')[0] ?? ''),
      at: (request as FastifyRequest & { receivedAt?: number }).receivedAt ?? now(),
      status: reply.statusCode,
      body: request.body ?? null,
    });
    if (state.log.length > 100_000) state.log.splice(0, 50_000);
  });
  api.addHook('onRequest', async (request, reply) => {
    (request as FastifyRequest & { receivedAt?: number }).receivedAt = now();
    const token = tokenOf(request);
    if (!token || !state.tokens.has(token)) return reply.code(401).send({ error: 'Invalid credentials' });
    const { limit } = state;
    const at = now();
    let window = state.windows.get(token);
    if (!window || at >= window.resetAtSec * 1000) {
      window = { resetAtSec: Math.ceil((at + limit.windowMs) / 1000), used: 0 };
      state.windows.set(token, window);
    }
    window.used += 1;
    const remaining = Math.max(0, limit.max - window.used);
    reply.header('X-RateLimit-Limit', String(limit.max));
    reply.header('X-RateLimit-Remaining', String(remaining));
    reply.header('X-RateLimit-Reset', String(window.resetAtSec));
    if (window.used > limit.max)
      return reply.code(429).send({ error: 'Rate limit exceeded. Please slow down.' });
    const failure = state.failures[0];
    if (failure) {
      failure.remaining -= 1;
      if (failure.remaining <= 0) state.failures.shift();
      if (failure.status === 'hang') {
        await delay(failure.delayMs ?? 35_000);
        return;
      }
      return reply
        .code(failure.status)
        .send({ error: failure.status >= 500 ? 'Service temporarily unavailable' : 'Request failed' });
    }
  });
}
