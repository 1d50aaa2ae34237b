import {
  api,
  MAX_STREAMS_PER_USER,
  PUBLIC_READS_PER_MINUTE,
  STREAM_TICKETS_PER_MINUTE,
} from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { HttpError, notFound } from '../http/errors.js';
import { serveEventStream, tooManyStreams, type EventStreamDeps } from './event-stream.js';
import { SessionNotFoundError, type LiveHub } from './hub.js';

export { DEVICE_STREAM_HEARTBEAT_MS, FULL_RETRY_AFTER_S, tooManyStreams } from './event-stream.js';
export { RETRY_MS } from './sse-frames.js';
export { MAX_BUFFERED_BYTES } from './sse-stream.js';

/** A stream ticket: one stream, opened within its 30 s. */
function ticketRoute(fastify: FastifyInstance, deps: EventStreamDeps): void {
  fastify.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(api.live.ticket, { rateLimitPerMinute: STREAM_TICKETS_PER_MINUTE, rateLimitPer: 'user' }),
    handler: async (request) => {
      const userId = String(signedInUser(request).id);
      // Checked here too, so a browser (whose EventSource never sees a status) gets the reason.
      const open = deps.limits.openFor(userId);
      if (open >= MAX_STREAMS_PER_USER) throw tooManyStreams(open);
      const { sessionKey } = request.query;
      const deviceId = request.device?.id;
      const { ticket, expiresAt } = await deps.tickets
        .issue({ userId, sessionKey, ...(deviceId ? { deviceId } : {}) })
        .catch(deps.unavailable);
      return { success: true as const, ticket, expiresAt: new Date(expiresAt).toISOString() };
    },
  });
}

function eventsRoute(fastify: FastifyInstance, deps: EventStreamDeps): void {
  fastify.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(api.live.events),
    handler: (request, reply) => serveEventStream(deps, request, reply, request.query),
  });
}

/** The fallback for clients without a stream. */
function stateRoute(fastify: FastifyInstance, hub: LiveHub): void {
  fastify.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(api.live.state),
    handler: async (request) => {
      try {
        const { sessionKey, event, status } = await hub.state(request.query.sessionKey);
        return {
          success: true as const,
          sessionKey,
          id: event?.id ?? null,
          flag: event?.data ?? null,
          upstream: status,
        };
      } catch (error) {
        if (error instanceof SessionNotFoundError) throw notFound(error.message);
        throw error;
      }
    },
  });
}

// Anyone may ask (the dashboard, a status page): it names no user and no secret. 60 a minute
// per address; the answer is built from memory, plus OpenF1's session lookup, cached 30 s.
function sourcesRoute(fastify: FastifyInstance, hub: LiveHub): void {
  fastify.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(api.live.sources, { rateLimitPerMinute: 60 }),
    handler: async () => {
      // Refreshes OpenF1's health when no follower asks it anything (cached: no extra upstream call).
      await hub.currentLiveSession().catch(() => null);
      return hub.sources();
    },
  });
}

function centralizedStatusRoute(fastify: FastifyInstance, hub: LiveHub): void {
  fastify.withTypeProvider<ZodTypeProvider>().route({
    ...fromContract(api.live.centralizedStatus, { rateLimitPerMinute: PUBLIC_READS_PER_MINUTE }),
    handler: async () => ({
      success: true as const,
      // The server always follows live sessions for its clients (DESIGN §1).
      centralizedPollingEnabled: true,
      isPollingActive: hub.isPollingActive(),
    }),
  });
}

/** DESIGN §5.4: tickets, the event stream, the fallback state, and SPEC §7 centralized-status. */
export async function liveRoutes(
  fastify: FastifyInstance,
  opts: Omit<EventStreamDeps, 'streams' | 'unavailable'>,
) {
  const streams = new Set<() => void>();
  // Open streams would keep the server from closing.
  fastify.addHook('preClose', async () => {
    for (const close of [...streams]) close();
  });
  const deps: EventStreamDeps = {
    ...opts,
    streams,
    /** The ticket store (Redis, with several instances) failed: the client may retry, or poll the state. */
    unavailable: (error: unknown): never => {
      fastify.log.warn({ err: error }, 'stream ticket store failed');
      throw new HttpError(503, 'Live updates are unavailable right now. Please try again in a moment.');
    },
  };

  ticketRoute(fastify, deps);
  eventsRoute(fastify, deps);
  stateRoute(fastify, opts.hub);
  sourcesRoute(fastify, opts.hub);
  centralizedStatusRoute(fastify, opts.hub);
}
