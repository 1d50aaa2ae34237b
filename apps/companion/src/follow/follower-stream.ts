// One connection to the server's event stream: a one-time ticket, the stream opened (resuming after
// the last event of the session), a watchdog and a check for the next live session while it runs,
// and its events read until it ends.
import { FlagEventDataSchema, type FlagEventData } from '@flaglight/core';
import { ServerError } from '../link/server-api.js';
import {
  deliver,
  forgetSession,
  pause,
  setStatus,
  unlinked,
  type FollowerContext,
} from './follower-context.js';
import { handleFailure } from './follower-failure.js';
import { waitForLiveSession } from './follower-poll.js';
import { readEventStream, type SseEvent } from './sse.js';

/** Follows the stream until it ends ('ended'), or fails to open it ('failed', the wait done). */
export async function runStream(ctx: FollowerContext): Promise<'ended' | 'failed'> {
  setStatus(ctx, {
    state: ctx.status.state === 'following' ? 'reconnecting' : ctx.status.state,
    message: ctx.status.message,
  });
  const opened = await openStream(ctx);
  if (opened === null) return 'failed';
  const { controller, body } = opened;
  ctx.failures = 0;
  ctx.streamFailures = 0;
  setStatus(ctx, { state: 'following', message: null });
  ctx.handlers.onConnected?.();

  const activity = { at: ctx.now() };
  const stopWatching = watchStream(ctx, controller, activity);
  try {
    await readFlags(ctx, body, controller, activity);
  } catch {
    // Aborted (watchdog, sleep, new session, stop) or the connection broke: reconnect below.
  } finally {
    stopWatching();
    ctx.current = null;
  }
  return 'ended';
}

/** A ticket, then the stream; null when either failed (the failure handled and waited for). */
async function openStream(
  ctx: FollowerContext,
): Promise<{ controller: AbortController; body: ReadableStream<Uint8Array> } | null> {
  const { api, token, sessionKey } = ctx;
  let ticket: string;
  try {
    const answer = await api.requestTicket(token, sessionKey);
    ticket = answer.ticket;
    if (answer.serverNow !== null)
      ctx.clockOffsetMs = Math.round((answer.serverNow - ctx.now()) / 1000) * 1000;
  } catch (error) {
    const delay = handleFailure(ctx, error, 'ticket');
    if (delay !== null) await pause(ctx, delay);
    return null;
  }
  const controller = new AbortController();
  ctx.current = controller;
  let response: Response;
  try {
    response = await api.openEvents(
      { ticket, ...(ctx.sessionKey !== undefined ? { sessionKey: ctx.sessionKey } : {}) },
      ctx.sessionKey !== undefined ? ctx.lastEventId : undefined,
      controller.signal,
    );
  } catch (error) {
    ctx.current = null;
    if (!(error instanceof ServerError)) ctx.streamFailures += 1;
    const delay = handleFailure(ctx, error, 'stream');
    if (ctx.status.state === 'waiting') {
      await waitForLiveSession(ctx);
      return null;
    }
    if (delay !== null) await pause(ctx, delay);
    return null;
  }
  if (!response.body) {
    ctx.current = null;
    return null;
  }
  return { controller, body: response.body };
}

/**
 * While the stream runs: no byte for `watchdogMs` (heartbeats come every 15 s) ends it as dead, and
 * another session going live (the next one of the weekend) ends it to follow that one. Returns the stop.
 */
function watchStream(
  ctx: FollowerContext,
  controller: AbortController,
  activity: { at: number },
): () => void {
  const { watchdogMs, sessionCheckMs } = ctx.timing;
  const watchdog = setInterval(
    () => {
      if (ctx.now() - activity.at > watchdogMs) controller.abort(new Error('no heartbeat'));
    },
    Math.min(5_000, watchdogMs),
  );
  watchdog.unref?.();
  const sessionCheck = setInterval(() => {
    void ctx.api.liveState(ctx.token).then(
      (answer) => {
        if (ctx.sessionKey !== undefined && answer.sessionKey !== ctx.sessionKey) {
          // Another session went live (the next one of the weekend): follow it instead.
          forgetSession(ctx);
          controller.abort(new Error('new session'));
        }
      },
      () => undefined,
    );
  }, sessionCheckMs);
  sessionCheck.unref?.();
  return () => {
    clearInterval(watchdog);
    clearInterval(sessionCheck);
  };
}

/** Reads the stream's events; the flags that arrived together are delivered as one batch. */
async function readFlags(
  ctx: FollowerContext,
  body: ReadableStream<Uint8Array>,
  controller: AbortController,
  activity: { at: number },
): Promise<void> {
  let batch: { id: number; data: FlagEventData }[] = [];
  await readEventStream(body, {
    signal: controller.signal,
    onActivity: () => {
      activity.at = ctx.now();
    },
    onEvent: (event) => {
      const flag = handleEvent(ctx, event, controller);
      if (flag) batch.push(flag);
    },
    onChunkEnd: () => {
      if (batch.length === 0) return;
      const taken = batch;
      batch = [];
      deliver(ctx, taken, ctx.now());
    },
  });
}

/** One event of the stream: a flag is returned for its batch; the others act at once. */
function handleEvent(
  ctx: FollowerContext,
  event: SseEvent,
  controller: AbortController,
): { id: number; data: FlagEventData } | null {
  const { handlers } = ctx;
  if (event.event === 'flag') {
    const parsed = FlagEventDataSchema.safeParse(safeJson(event.data));
    const id = Number(event.id);
    if (parsed.success && Number.isSafeInteger(id)) return { id, data: parsed.data };
  } else if (event.event === 'status') {
    const key = (safeJson(event.data) as { sessionKey?: unknown } | null)?.sessionKey;
    if (typeof key === 'number' && ctx.sessionKey === undefined) ctx.sessionKey = key;
  } else if (event.event === 'preferences') {
    handlers.onPreferences(safeJson(event.data));
  } else if (event.event === 'test') {
    const state = (safeJson(event.data) as { state?: unknown } | null)?.state;
    if (typeof state === 'string') handlers.onTest(state);
  } else if (event.event === 'unlinked') {
    const message = (safeJson(event.data) as { error?: unknown } | null)?.error;
    unlinked(ctx, typeof message === 'string' ? message : 'This companion was unlinked from its account.');
    controller.abort();
  }
  return null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
