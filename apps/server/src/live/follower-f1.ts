// A live follower's F1 live-timing side: the feed's lines join the fusion while it is healthy
// and on this session; when it is lost, race control from OpenF1 decides again.
import type { Logger } from 'pino';
import type { SessionDeriver } from './deriver.js';
import type { F1Feed, F1FeedEvent } from './f1-feed.js';

export interface F1Follow {
  /** Joins the fusion when the feed is healthy on this session (and has not joined yet). */
  attach(): void;
  stop(): void;
}

export function followF1(options: {
  sessionKey: number;
  f1: F1Feed | undefined;
  deriver: SessionDeriver;
  logger?: Logger | undefined;
}): F1Follow {
  const { sessionKey, f1, deriver, logger } = options;
  let stopped = false;
  /** F1 live timing is healthy and on this session: its lines go into the fusion. */
  let attached = false;

  /** F1 is healthy on this session: its account of the session so far joins the fusion. */
  function attach(): void {
    const state = f1?.sessionState(sessionKey);
    if (!state || attached) return;
    attached = true;
    const first = !deriver.snapshotPublished;
    deriver.reconcile(state.messages, 'f1-live-timing');
    // Race control first: TrackStatus is the newer word on the track-wide state.
    if (state.sessionStatus)
      deriver.pushFeed({ kind: 'session_status', status: { Status: state.sessionStatus } });
    if (state.trackStatus) deriver.pushFeed({ kind: 'track_status', status: state.trackStatus });
    if (first) deriver.publishSnapshot();
    logger?.info({ sessionKey }, 'following F1 live timing');
  }

  function detach(why: string): void {
    if (!attached) return;
    attached = false;
    deriver.pushFeed({ kind: 'track_status_lost' });
    logger?.warn({ sessionKey, why }, 'F1 live timing lost; race control from OpenF1 decides');
  }

  function onEvent(event: F1FeedEvent): void {
    if (stopped) return;
    if (event.type === 'health') {
      if (event.health.healthy) attach();
      else detach(event.health.error ?? 'unhealthy');
      return;
    }
    if (event.sessionKey !== sessionKey) {
      detach(`the feed moved to session ${String(event.sessionKey)}`);
      return;
    }
    if (!attached) {
      attach();
      return;
    }
    applyF1Event(deriver, event);
  }

  const off = f1?.subscribe(onEvent);
  return {
    attach,
    stop() {
      stopped = true;
      off?.();
    },
  };
}

/** One message of the feed, on this session, into the fusion. */
function applyF1Event(deriver: SessionDeriver, event: Exclude<F1FeedEvent, { type: 'health' }>): void {
  if (event.type === 'raceControl') {
    if (event.snapshot) deriver.reconcile([event.message], 'f1-live-timing');
    else deriver.ingest([event.message], 'f1-live-timing');
  } else if (event.type === 'trackStatus') {
    deriver.pushFeed({
      kind: 'track_status',
      status: { Status: event.event.status, Message: event.event.message ?? '' },
      ...(event.event.feedTime ? { date: event.event.feedTime } : {}),
    });
  } else {
    deriver.pushFeed({ kind: 'session_status', status: { Status: event.event.status } });
  }
}
