// `GET /api/live/events`: a ticket opens one client's stream of a session's events, with the
// account's events beside them and a heartbeat that keeps it open (and checks a companion's link).
import { LIVE_STREAM_HEARTBEAT_MS } from '@flaglight/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, HttpError, notFound, unauthorized } from '../http/errors.js';
import type { Timers } from './clock.js';
import type { DeviceStreams } from './device-streams.js';
import type { Subscription } from './hub-types.js';
import { SessionNotFoundError, type LiveHub } from './hub.js';
import { HEARTBEAT_FRAME, RETRY_FRAME, statusFrame, UNLINKED_FRAME, userEventFrame } from './sse-frames.js';
import { createSseStream, sendStreamHead, type SseStream } from './sse-stream.js';
import type { StreamLimits } from './stream-limits.js';
import type { TicketGrant, TicketStore } from './tickets.js';
import { reachesStream, type UserEvents } from './user-events.js';

/**
 * A companion's stream beats this often, and asks then whether its device is still linked (one
 * indexed read per companion stream and beat). A page's stream beats every LIVE_STREAM_HEARTBEAT_MS
 * (3 s), so the page can tell within 10 s that the server is gone. Either keeps proxies from closing
 * an idle stream.
 */
export const DEVICE_STREAM_HEARTBEAT_MS = 15_000;
/** A full instance asks clients to come back after this many seconds (`Retry-After`). */
export const FULL_RETRY_AFTER_S = 30;

/** The 429 of an account that holds all its streams. */
export function tooManyStreams(open: number): HttpError {
  return new HttpError(
    429,
    `You already have ${open} live streams open. Close one (another tab or device) and try again.`,
  );
}

export interface EventStreamDeps {
  hub: LiveHub;
  tickets: TicketStore;
  timers: Timers;
  limits: StreamLimits;
  userEvents: UserEvents;
  deviceStreams: DeviceStreams;
  /** The open streams, closed with the server. */
  streams: Set<() => void>;
  /** The ticket store failed: a 503 the client may retry. */
  unavailable: (error: unknown) => never;
}

export interface EventStreamQuery {
  ticket: string;
  sessionKey?: number | undefined;
  lastEventId?: string | undefined;
}

function parseEventId(value: unknown): number | undefined {
  const text: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || !/^\d{1,16}$/.test(text)) return undefined;
  return Number(text);
}

/** Redeems the ticket and checks it opens this session, for a device still linked. */
async function redeemTicket(deps: EventStreamDeps, query: EventStreamQuery): Promise<TicketGrant> {
  const grant = await deps.tickets.redeem(query.ticket).catch(deps.unavailable);
  if (grant === null) {
    throw unauthorized('This stream ticket is invalid, used or expired. Ask for a new one.');
  }
  // A ticket asked for one session (a replay, for an ended trial) opens that session only.
  if (grant.sessionKey !== undefined && grant.sessionKey !== query.sessionKey) {
    throw forbidden('This stream ticket was issued for another session. Ask for a new one.');
  }
  // A ticket outlives an unlink by up to its 30 s: a companion unlinked since gets no stream.
  if (grant.deviceId !== undefined && !(await deps.deviceStreams.stillLinked(grant.deviceId))) {
    throw unauthorized('This companion was unlinked from its account.');
  }
  return grant;
}

/** A place among the account's and the instance's streams; `release` gives it back. */
function takePlace(deps: EventStreamDeps, userId: string, reply: FastifyReply): () => void {
  const place = deps.limits.acquire(userId);
  if (!place.ok && place.reason === 'user') throw tooManyStreams(place.open);
  if (!place.ok) {
    void reply.header('retry-after', String(FULL_RETRY_AFTER_S));
    throw new HttpError(503, 'This server is at its limit of live streams. Please try again in a moment.');
  }
  return place.release;
}

/** Subscribes the stream to its session; flags wait in `pending` until the head is sent. */
async function subscribeStream(
  deps: EventStreamDeps,
  stream: SseStream,
  sessionKey: number | undefined,
  lastEventId: number | undefined,
  release: () => void,
): Promise<Subscription & { sessionKey: number }> {
  try {
    await deps.userEvents.ready();
    return await deps.hub.subscribe(
      sessionKey,
      {
        onFlag(event) {
          if (stream.pending) stream.pending.push(event);
          else stream.writeFlag(event);
        },
        onStatus(status) {
          if (!stream.pending) stream.write(statusFrame(status));
        },
        // Its account started another replay: what was sent reaches the client, then it ends.
        onEnded() {
          if (stream.send) stream.close(true);
          else stream.endedEarly = true;
        },
      },
      { lastEventId },
    );
  } catch (error) {
    release();
    if (error instanceof SessionNotFoundError) throw notFound(error.message);
    throw error;
  }
}

/** What the client gets first: the retry delay, the status, then the flags it lacks. */
function writeOpening(stream: SseStream, subscription: Subscription): void {
  stream.write(RETRY_FRAME);
  if (subscription.status) stream.write(statusFrame(subscription.status));
  for (const event of subscription.initial) stream.writeFlag(event);
  const late = stream.pending ?? [];
  stream.pending = null;
  for (const event of late) stream.writeFlag(event);
}

/** Beats the stream; a companion's beat also asks whether its device is still linked. */
function startHeartbeat(
  deps: EventStreamDeps,
  stream: SseStream,
  deviceId: string | undefined,
  unlinked: () => void,
): void {
  const { timers } = deps;
  const beatMs = deviceId === undefined ? LIVE_STREAM_HEARTBEAT_MS : DEVICE_STREAM_HEARTBEAT_MS;
  const beat = () => {
    stream.write(HEARTBEAT_FRAME);
    if (!stream.closed) stream.heartbeat = timers.setTimeout(beat, beatMs);
    if (deviceId === undefined || stream.closed) return;
    // A store failure keeps the stream: the check runs again at the next heartbeat.
    return deps.deviceStreams.stillLinked(deviceId).then(
      (linked) => {
        if (!linked) unlinked();
      },
      () => undefined,
    );
  };
  stream.heartbeat = timers.setTimeout(beat, beatMs);
}

export async function serveEventStream(
  deps: EventStreamDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  query: EventStreamQuery,
): Promise<void> {
  const grant = await redeemTicket(deps, query);
  const release = takePlace(deps, grant.userId, reply);
  const lastEventId = parseEventId(request.headers['last-event-id']) ?? parseEventId(query.lastEventId);
  const { streams, timers } = deps;
  const stream = createSseStream({ res: reply.raw, lastEventId, release, streams, timers });
  const subscription = await subscribeStream(deps, stream, query.sessionKey, lastEventId, release);
  stream.unsubscribe = subscription.unsubscribe;
  if (stream.endedEarly) {
    release();
    throw notFound(`Replay ${subscription.sessionKey} has ended.`);
  }
  streams.add(stream.close);
  const { deviceId } = grant;
  // Unlinked: say so on the stream, then close it (its next ticket gets 401).
  const unlinked = () => {
    if (stream.send && !stream.closed) stream.send(UNLINKED_FRAME);
    stream.close(true);
  };
  if (deviceId !== undefined)
    stream.forgetDevice = deps.deviceStreams.add({ deviceId, userId: grant.userId }, unlinked);
  if (!sendStreamHead(stream, request, reply)) return;
  writeOpening(stream, subscription);
  // Account-wide events reach the account's streams, whatever their session (`test`: companions only).
  const audience = { device: deviceId !== undefined };
  if (!stream.closed)
    stream.unsubscribeUser = deps.userEvents.subscribe(grant.userId, (event) => {
      if (reachesStream(event, audience)) stream.write(userEventFrame(event));
    });
  startHeartbeat(deps, stream, deviceId, unlinked);
}
