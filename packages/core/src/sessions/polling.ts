import {
  POLL_ERROR_BACKOFF_MS,
  POLL_ERROR_THRESHOLD,
  POLL_INTERVAL_MS,
  POLL_RATE_LIMIT_BACKOFF_MS,
} from '../constants.js';

/** OpenF1's MQTT topic of race-control messages (reference §1.9), for its client and its simulator. */
export const OPENF1_RACE_CONTROL_TOPIC = 'v1/race_control';

/**
 * SPEC §4 Polling: the wait before the next poll, 3 s; 10 s after a rate limit; 5 s after more
 * than 3 errors in a row. The server's follower and the clients' polling fallback use it alike.
 */
export function nextPollDelay(outcome: 'ok' | 'rate-limited' | 'error', consecutiveErrors: number): number {
  if (outcome === 'rate-limited') return POLL_RATE_LIMIT_BACKOFF_MS;
  if (outcome === 'error' && consecutiveErrors > POLL_ERROR_THRESHOLD) return POLL_ERROR_BACKOFF_MS;
  return POLL_INTERVAL_MS;
}
