import {
  api,
  LIVE_STREAM_HEARTBEAT_MS,
  MAX_STREAMS_PER_USER,
  PUBLIC_READS_PER_MINUTE,
  STREAM_TICKETS_PER_MINUTE,
} from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { forbidden, HttpError, notFound, unauthorized } from '../http/errors.js';
import type { TimerHandle, Timers } from './clock.js';
import type { DeviceStreams } from './device-streams.js';
import { SessionNotFoundError, type LiveHub } from './hub.js';
import type { StreamLimits } from './stream-limits.js';
import type { TicketStore } from './tickets.js';
import type { FlagEvent, StatusEventData } from './types.js';
import { reachesStream, userEventData, type UserEvent, type UserEvents } from './user-events.js';

/**
 * A companion's stream beats this often, and asks then whether its device is still linked (one
 * indexed read per companion stream and beat). A page's stream beats every LIVE_STREAM_HEARTBEAT_MS
 * (3 s), so the page can tell within 10 s that the server is gone. Either keeps proxies from closing
 * an idle stream.
 */
export const DEVICE_STREAM_HEARTBEAT_MS = 15_000;
/** Bytes a client may leave unread before it is dropped (a few hundred events; never unbounded). */
export const MAX_BUFFERED_BYTES = 64 * 1024;
/** EventSource waits this long before reconnecting. */
export const RETRY_MS = 3_000;
/** A full instance asks clients to come back after this many seconds (`Retry-After`). */
export const FULL_RETRY_AFTER_S = 30;

/** The 429 of an account that holds all its streams. */
export function tooManyStreams(open: number): HttpError {
  return new HttpError(
    429,
    `You already have ${open} live streams open. Close one (another tab or device) and try again.`,
  );
}

/**
 * An SSE block as bytes, made once and shared by every client: as is, and framed as one HTTP/1.1
 * chunk. Fan-out then costs one `socket.write` of a shared Buffer per client: no per-client
 * string encoding, chunk-size line or cork/uncork round of `res.write` (bench/live.ts).
 */
interface Frame {
  raw: Buffer;
  chunked: Buffer;
}

function frameOf(text: string): Frame {
  const raw = Buffer.from(text, 'utf8');
  const chunked = Buffer.concat([Buffer.from(`${raw.length.toString(16)}\r\n`, 'latin1'), raw, CRLF]);
  return { raw, chunked };
}

const CRLF = Buffer.from('\r\n', 'latin1');
const RETRY_FRAME = frameOf(`retry: ${RETRY_MS}\n\n`);
/** An event, not a comment: an EventSource hands comments to no one. Companions ignore it. */
const HEARTBEAT_FRAME = frameOf('event: heartbeat\ndata: {}\n\n');
/** Sent to an unlinked companion just before its stream closes: the stream's 401. */
const UNLINKED_FRAME = frameOf(
  `event: unlinked\ndata: ${JSON.stringify({ code: 'unauthenticated', error: 'This companion was unlinked from its account.' })}\n\n`,
);

/** Every stream of a session gets the same event object: it is framed once, not once per client. */
const flagFrames = new WeakMap<FlagEvent, Frame>();

function flagFrame(event: FlagEvent): Frame {
  let frame = flagFrames.get(event);
  if (frame === undefined) {
    frame = frameOf(`id: ${event.id}\nevent: flag\ndata: ${JSON.stringify(event.data)}\n\n`);
    flagFrames.set(event, frame);
  }
  return frame;
}

const statusFrames = new WeakMap<StatusEventData, Frame>();

function statusFrame(status: StatusEventData): Frame {
  let frame = statusFrames.get(status);
  if (frame === undefined) {
    frame = frameOf(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
    statusFrames.set(status, frame);
  }
  return frame;
}

/** Account-wide events carry no id: they are not part of a session's resumable sequence. */
function userEventFrame(event: UserEvent): Frame {
  return frameOf(`event: ${event.type}\ndata: ${JSON.stringify(userEventData(event))}\n\n`);
}

function parseEventId(value: unknown): number | undefined {
  const text: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || !/^\d{1,16}$/.test(text)) return undefined;
  return Number(text);
}

/** DESIGN §5.4: tickets, the event stream, the fallback state, and SPEC §7 centralized-status. */
export async function liveRoutes(
  fastify: FastifyInstance,
  opts: {
    hub: LiveHub;
    tickets: TicketStore;
    timers: Timers;
    limits: StreamLimits;
    userEvents: UserEvents;
    deviceStreams: DeviceStreams;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { hub, tickets, timers, limits, userEvents, deviceStreams } = opts;
  /** The ticket store (Redis, with several instances) failed: the client may retry, or poll the state. */
  const unavailable = (error: unknown): never => {
    fastify.log.warn({ err: error }, 'stream ticket store failed');
    throw new HttpError(503, 'Live updates are unavailable right now. Please try again in a moment.');
  };
  const streams = new Set<() => void>();
  // Open streams would keep the server from closing.
  fastify.addHook('preClose', async () => {
    for (const close of [...streams]) close();
  });

  app.route({
    ...fromContract(api.live.ticket, { rateLimitPerMinute: STREAM_TICKETS_PER_MINUTE, rateLimitPer: 'user' }),
    handler: async (request) => {
      const userId = String(signedInUser(request).id);
      // Checked here too, so a browser (whose EventSource never sees a status) gets the reason.
      const open = limits.openFor(userId);
      if (open >= MAX_STREAMS_PER_USER) throw tooManyStreams(open);
      const { sessionKey } = request.query;
      const deviceId = request.device?.id;
      const { ticket, expiresAt } = await tickets
        .issue({ userId, sessionKey, ...(deviceId ? { deviceId } : {}) })
        .catch(unavailable);
      return { success: true as const, ticket, expiresAt: new Date(expiresAt).toISOString() };
    },
  });

  app.route({
    ...fromContract(api.live.events),
    handler: async (request, reply) => {
      const grant = await tickets.redeem(request.query.ticket).catch(unavailable);
      if (grant === null) {
        throw unauthorized('This stream ticket is invalid, used or expired. Ask for a new one.');
      }
      // A ticket asked for one session (a replay, for an ended trial) opens that session only.
      if (grant.sessionKey !== undefined && grant.sessionKey !== request.query.sessionKey) {
        throw forbidden('This stream ticket was issued for another session. Ask for a new one.');
      }
      // A ticket outlives an unlink by up to its 30 s: a companion unlinked since gets no stream.
      if (grant.deviceId !== undefined && !(await deviceStreams.stillLinked(grant.deviceId))) {
        throw unauthorized('This companion was unlinked from its account.');
      }
      const place = limits.acquire(grant.userId);
      if (!place.ok && place.reason === 'user') throw tooManyStreams(place.open);
      if (!place.ok) {
        void reply.header('retry-after', String(FULL_RETRY_AFTER_S));
        throw new HttpError(
          503,
          'This server is at its limit of live streams. Please try again in a moment.',
        );
      }
      const lastEventId =
        parseEventId(request.headers['last-event-id']) ?? parseEventId(request.query.lastEventId);
      const res = reply.raw;
      let lastWritten = lastEventId ?? 0;
      let pending: FlagEvent[] | null = [];
      let closed = false;
      /** The replay ended before the stream was open: it gets 404 instead. */
      let endedEarly = false;
      let heartbeat: TimerHandle | null = null;
      let unsubscribe = () => {};
      let unsubscribeUser = () => {};
      let forgetDevice = () => {};

      /** Ends the stream; `graceful`: what was written still reaches the client (the end is sent). */
      const close = (graceful = false) => {
        if (closed) return;
        closed = true;
        place.release();
        streams.delete(close);
        forgetDevice();
        if (heartbeat) timers.clearTimeout(heartbeat);
        unsubscribe();
        unsubscribeUser();
        if (res.destroyed) return;
        if (graceful && res.headersSent) res.end();
        else res.destroy();
      };
      /** Set once the head is sent: where the frames go (the socket itself, or `res` as a fallback). */
      let send: ((frame: Frame) => void) | null = null;
      const write = (frame: Frame) => {
        if (closed || !send) return;
        // A client that cannot keep up is dropped; it reconnects and resumes from its last id.
        if (res.writableLength > MAX_BUFFERED_BYTES) {
          close();
          return;
        }
        send(frame);
      };
      const writeFlag = (event: FlagEvent) => {
        if (event.id <= lastWritten) return;
        lastWritten = event.id;
        write(flagFrame(event));
      };

      let subscription;
      try {
        await userEvents.ready();
        subscription = await hub.subscribe(
          request.query.sessionKey,
          {
            onFlag(event) {
              if (pending) pending.push(event);
              else writeFlag(event);
            },
            onStatus(status) {
              if (!pending) write(statusFrame(status));
            },
            // Its account started another replay: what was sent reaches the client, then it ends.
            onEnded() {
              if (send) close(true);
              else endedEarly = true;
            },
          },
          { lastEventId },
        );
      } catch (error) {
        place.release();
        if (error instanceof SessionNotFoundError) throw notFound(error.message);
        throw error;
      }
      unsubscribe = subscription.unsubscribe;
      if (endedEarly) {
        place.release();
        throw notFound(`Replay ${subscription.sessionKey} has ended.`);
      }
      streams.add(close);
      const { deviceId } = grant;
      // Unlinked: say so on the stream, then close it (its next ticket gets 401).
      const unlinked = () => {
        if (send && !closed) send(UNLINKED_FRAME);
        close(true);
      };
      if (deviceId !== undefined)
        forgetDevice = deviceStreams.add({ deviceId, userId: grant.userId }, unlinked);

      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.on('close', close);
      request.raw.on('close', close);
      const socket = res.socket;
      // The client may have gone while the subscription was made: its place is freed now, not never.
      if (!socket || socket.destroyed) {
        close();
        return;
      }
      res.flushHeaders();
      // The head is on the socket: the body's frames can follow it there directly, framed as
      // `res` would (chunked for HTTP/1.1). If the head is still queued, `res` keeps the order.
      const direct = res.headersSent && res.writableLength === socket.writableLength;
      const chunked = res.chunkedEncoding;
      send = direct
        ? (frame) => socket.write(chunked ? frame.chunked : frame.raw)
        : (frame) => res.write(frame.raw);
      write(RETRY_FRAME);
      if (subscription.status) write(statusFrame(subscription.status));
      for (const event of subscription.initial) writeFlag(event);
      const late = pending;
      pending = null;
      for (const event of late) writeFlag(event);
      // Account-wide events reach the account's streams, whatever their session (`test`: companions only).
      const audience = { device: deviceId !== undefined };
      if (!closed)
        unsubscribeUser = userEvents.subscribe(grant.userId, (event) => {
          if (reachesStream(event, audience)) write(userEventFrame(event));
        });

      const beatMs = deviceId === undefined ? LIVE_STREAM_HEARTBEAT_MS : DEVICE_STREAM_HEARTBEAT_MS;
      const beat = () => {
        write(HEARTBEAT_FRAME);
        if (!closed) heartbeat = timers.setTimeout(beat, beatMs);
        if (deviceId === undefined || closed) return;
        // A store failure keeps the stream: the check runs again at the next heartbeat.
        return deviceStreams.stillLinked(deviceId).then(
          (linked) => {
            if (!linked) unlinked();
          },
          () => undefined,
        );
      };
      heartbeat = timers.setTimeout(beat, beatMs);
    },
  });

  app.route({
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

  // Anyone may ask (the dashboard, a status page): it names no user and no secret. 60 a minute
  // per address; the answer is built from memory, plus OpenF1's session lookup, cached 30 s.
  app.route({
    ...fromContract(api.live.sources, { rateLimitPerMinute: 60 }),
    handler: async () => {
      // Refreshes OpenF1's health when no follower asks it anything (cached: no extra upstream call).
      await hub.currentLiveSession().catch(() => null);
      return hub.sources();
    },
  });

  app.route({
    ...fromContract(api.live.centralizedStatus, { rateLimitPerMinute: PUBLIC_READS_PER_MINUTE }),
    handler: async () => ({
      success: true as const,
      // The server always follows live sessions for its clients (DESIGN §1).
      centralizedPollingEnabled: true,
      isPollingActive: hub.isPollingActive(),
    }),
  });
}
