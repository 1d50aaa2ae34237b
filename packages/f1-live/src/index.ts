export { backoffDelay, DEFAULT_BACKOFF } from './backoff.js';
export { createF1LiveClient } from './client.js';
export { type F1LiveLogger } from './failure.js';
export {
  DEFAULT_SILENCE_TIMEOUT_MS,
  DEFAULT_TOPICS,
  F1_LIVE_TIMING_URL,
  type F1LiveClient,
  type F1LiveClientOptions,
  type F1LiveConnection,
  type F1LiveEvents,
  type F1LiveSource,
  type F1LiveState,
  type HeartbeatEvent,
  type RaceControlEvent,
  type SessionInfoEvent,
  type SessionStatusEvent,
  type TrackStatusEvent,
} from './types.js';
export { CookieHttpClient, parseSetCookie } from './http-client.js';
export {
  applyDelta,
  type FeedObject,
  type FeedValue,
  inflateTopicData,
  isDeflatedTopic,
  stripKeyframes,
} from './merge.js';
export { feedUtcToOpenF1Date, type SessionKeys, toRaceControlMessage } from './race-control.js';
