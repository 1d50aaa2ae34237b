import { randomBytes, randomUUID } from 'node:crypto';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Clock } from '../shared/clock.js';
import { parseCookieHeader } from './protocol.js';
import { type SimState } from './state.js';
import { F1LIVE_THROTTLE_RETRY_AFTER_S } from './types.js';

/** A connection token negotiate handed out, and the load-balancer cookie it came with. */
export interface Issued {
  token: string;
  cookie: string;
  used: boolean;
  at: number;
}

export interface NegotiateRoutesOptions {
  state: SimState;
  /** Tokens by value; the upgrade marks them used. */
  issued: Map<string, Issued>;
  now: Clock;
}

/** `<prefix>/signalrcore/negotiate` (and the legacy and plain-HTTP paths, refused as upstream does). */
export function registerNegotiateRoutes(app: FastifyInstance, options: NegotiateRoutesOptions): void {
  const { state, issued, now } = options;

  function stickyCookies(request: FastifyRequest, reply: FastifyReply): string {
    const sent = parseCookieHeader(request.headers.cookie);
    const known = [...issued.values()].some((i) => i.cookie === sent.get('AWSALB'));
    const value = known ? (sent.get('AWSALB') ?? '') : randomBytes(24).toString('base64url');
    reply.header('set-cookie', [
      `AWSALBCORS=${value}; Expires=${new Date(now() + 7 * 86_400_000).toUTCString()}; Path=/; SameSite=None; Secure`,
      `AWSALB=${value}; Expires=${new Date(now() + 7 * 86_400_000).toUTCString()}; Path=/`,
    ]);
    return value;
  }

  function negotiate(request: FastifyRequest, reply: FastifyReply): unknown {
    state.count('negotiations');
    if (state.mode === 'throttle') {
      state.count('refused-throttled');
      return reply
        .code(429)
        .header('retry-after', String(F1LIVE_THROTTLE_RETRY_AFTER_S))
        .type('text/plain')
        .send('Too Many Requests');
    }
    if (state.mode === 'down')
      return reply
        .code(503)
        .type('text/html')
        .send('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
    const cookie = stickyCookies(request, reply);
    const query = request.query as Record<string, string | undefined>;
    const version = Number(query.negotiateVersion ?? 0) >= 1 ? 1 : 0;
    const connectionId = randomBytes(16).toString('base64url');
    const connectionToken = version === 1 ? randomUUID() : connectionId;
    issued.set(connectionToken, { token: connectionToken, cookie, used: false, at: now() });
    if (issued.size > 10_000) issued.delete(issued.keys().next().value!);
    const transports = [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }];
    return version === 1
      ? { negotiateVersion: 1, connectionId, connectionToken, availableTransports: transports }
      : { negotiateVersion: 0, connectionId, availableTransports: transports };
  }

  app.options('/signalrcore/negotiate', async (request, reply) => {
    state.count('preflights');
    if (state.mode === 'down') return reply.code(503).send('Service Unavailable');
    stickyCookies(request, reply);
    return reply
      .code(204)
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-credentials', 'true')
      .send();
  });
  app.post('/signalrcore/negotiate', async (request, reply) => negotiate(request, reply));
  app.get('/signalrcore/negotiate', async (_request, reply) =>
    reply.code(405).header('allow', 'POST, OPTIONS').send(''),
  );
  app.all('/signalr/negotiate', async (_request, reply) => reply.code(401).send(''));
  app.get('/signalrcore', async (request, reply) => {
    const id = (request.query as Record<string, string | undefined>).id;
    if (!id || !issued.has(id)) return reply.code(404).send('No Connection with that ID');
    return reply.code(400).send('WebSockets only');
  });
}
