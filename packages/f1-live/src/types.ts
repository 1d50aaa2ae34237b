import { type RaceControlMessage } from '@flaglight/core';
import { type F1LiveLogger } from './failure.js';
import { type FeedObject, type FeedValue } from './merge.js';
import { type SessionKeys } from './race-control.js';

/** The production hub (reference §1): anonymous, and it serves every topic Flaglight needs. */
export const F1_LIVE_TIMING_URL = 'https://livetiming.formula1.com/signalrcore';
export const DEFAULT_TOPICS = [
  'Heartbeat',
  'SessionInfo',
  'SessionStatus',
  'TrackStatus',
  'RaceControlMessages',
  'ExtrapolatedClock',
] as const;
/** ASP.NET Core's default: 30 s without any frame (pings every 15 s) means the connection is dead. */
export const DEFAULT_SILENCE_TIMEOUT_MS = 30_000;

export type F1LiveConnection = 'connecting' | 'connected' | 'reconnecting' | 'down';

export interface F1LiveState {
  connection: F1LiveConnection;
  /** When (client clock, ms) the last snapshot or feed data arrived; null before any. */
  lastMessageAt: number | null;
  /** Why the last connection or attempt failed, while not connected. */
  error?: string;
}

/** `snapshot`: from a Subscribe result (first connect or after a reconnect); `feed`: a live update. */
export type F1LiveSource = 'snapshot' | 'feed';

export interface Timed {
  /** The feed frame's timestamp (ISO, UTC); null for snapshot-derived events. */
  feedTime: string | null;
  /** When the client received it (client clock, ms). */
  receivedAt: number;
  source: F1LiveSource;
}

export interface TrackStatusEvent extends Timed {
  /** `1` AllClear, `2` Yellow, `4` SCDeployed, `5` Red, `6` VSCDeployed, `7` VSCEnding (a string, as sent). */
  status: string;
  message: string | null;
}

export interface RaceControlEvent extends Timed {
  /** Position in the session's message list. */
  index: number;
  /** OpenF1 /v1/race_control shape, what the core tracker takes. */
  message: RaceControlMessage;
  /** The live-timing record as merged (`Utc`, `Category`, `Flag`, `Mode`, `Status`…). */
  record: FeedObject;
}

export interface SessionStatusEvent extends Timed {
  /** `Inactive`, `Started`, `Aborted`, `Finished`, `Finalised`, `Ends`. */
  status: string;
}

export interface SessionInfoEvent extends Timed {
  info: FeedObject;
  sessionKey: number | null;
  meetingKey: number | null;
}

export interface HeartbeatEvent extends Timed {
  utc: string | null;
}

export interface F1LiveEvents {
  trackStatus: TrackStatusEvent;
  raceControl: RaceControlEvent;
  sessionStatus: SessionStatusEvent;
  sessionInfo: SessionInfoEvent;
  heartbeat: HeartbeatEvent;
  state: F1LiveState;
}

export interface F1LiveClientOptions {
  /** The hub URL: {@link F1_LIVE_TIMING_URL} in production, a simulator's `…/signalrcore` in tests and demo. */
  baseUrl: string;
  topics?: readonly string[];
  logger?: F1LiveLogger;
  /** Client clock for `receivedAt`/`lastMessageAt`. Default `Date.now`. */
  now?: () => number;
  /** Reconnect after this long without any frame, and give up an attempt that takes longer. Default 30 s. */
  silenceTimeoutMs?: number;
  backoff?: { initialMs?: number; factor?: number; maxMs?: number; jitter?: number };
  /** Source of jitter in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Extra headers on negotiate and the upgrade (e.g. `Authorization` for gated topics). */
  headers?: Record<string, string>;
}

export interface F1LiveClient {
  /** Connects, and keeps reconnecting until `stop()`. Resolves at once (watch `state`). */
  start(): void;
  stop(): Promise<void>;
  state(): F1LiveState;
  on<K extends keyof F1LiveEvents>(event: K, handler: (payload: F1LiveEvents[K]) => void): () => void;
  /** A topic's merged state (`TrackStatus`, `CarData` for `CarData.z`…), or undefined. */
  topic(name: string): FeedValue | undefined;
  /** The session's keys from SessionInfo (`Key`, `Meeting.Key`). */
  sessionKeys(): SessionKeys;
  /** Load-balancer cookies held by the current connection (names → values). */
  cookies(): Record<string, string>;
}
