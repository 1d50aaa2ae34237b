import { nextPollDelay } from '@flaglight/core';
import { ApiError } from '../api/client';
import type { FlagEvent, LiveStateAnswer, StatusEventData } from './live-api';
import { unlessSilent } from './live-feed-timers';

/** What polling needs of the feed it runs in. */
export interface PollingFeed {
  fetchState: (sessionKey?: number, signal?: AbortSignal) => Promise<LiveStateAnswer>;
  onStatus(status: StatusEventData): void;
  isStopped(): boolean;
  sessionKey(): number | undefined;
  /** The first answer names the session when none was pinned yet. */
  pinSessionKey(key: number): void;
  markConnected(): void;
  setReachable(reachable: boolean): void;
  deliver(event: FlagEvent): void;
  /** A refusal that ends the feed (an ended trial). */
  fail(error: unknown): void;
  /** The feed's one pending timer. */
  later(fn: () => void, ms: number): void;
}

/**
 * Polls `/api/live/state` (SPEC §4 Polling) when the stream is not used: at the poll interval while
 * it answers, backing off on errors and more on 429; an answer marks the server reachable again.
 */
export function createFeedPolling(feed: PollingFeed) {
  let pollErrors = 0;
  function poll(delay: number) {
    feed.later(() => void pollOnce(), delay);
  }

  // Never rejects: every failure schedules the next poll.
  async function pollOnce() {
    try {
      const answer = await unlessSilent((signal) => feed.fetchState(feed.sessionKey(), signal));
      if (feed.isStopped()) return;
      pollErrors = 0;
      feed.pinSessionKey(answer.sessionKey);
      feed.markConnected();
      feed.setReachable(true);
      if (answer.upstream) feed.onStatus(answer.upstream);
      if (answer.event) feed.deliver(answer.event);
      poll(nextPollDelay('ok', 0));
    } catch (error) {
      if (feed.isStopped()) return;
      if (error instanceof ApiError && error.code === 'trial_expired') return feed.fail(error);
      // No answer, or the server failing (5xx, a proxy's 502): out of reach. A 4xx is an answer.
      if (!(error instanceof ApiError) || error.status >= 500) feed.setReachable(false);
      pollErrors += 1;
      const limited = error instanceof ApiError && error.code === 'rate_limited';
      poll(nextPollDelay(limited ? 'rate-limited' : 'error', pollErrors));
    }
  }

  return { poll };
}
