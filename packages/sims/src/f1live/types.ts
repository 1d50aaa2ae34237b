import { type FastifyPluginAsync } from 'fastify';
import { type Clock } from '../shared/clock.js';

/** What the demo replays: the same race as the OpenF1 simulator's demo (safety car, two reds, four VSCs). */
export const F1LIVE_DEMO_FIXTURE = '2021-saudi-arabia-race';
/** ASP.NET Core's default keep-alive: a ping every 15 s. */
export const F1LIVE_PING_INTERVAL_MS = 15_000;
/** Heartbeat topic frames: about every 5 s. */
export const F1LIVE_HEARTBEAT_INTERVAL_MS = 5_000;
/** Topics only served with an `Authorization` header (an F1 TV token): reference §1. */
export const F1LIVE_GATED_TOPICS = ['CarData.z', 'Position.z'] as const;

export type F1LiveMode = 'normal' | 'down' | 'stall' | 'garbage' | 'throttle';
export const F1LIVE_MODES: readonly F1LiveMode[] = ['normal', 'down', 'stall', 'garbage', 'throttle'];
/** How race-control messages are sent: as recorded, each twice, or each held back behind the next. */
export type F1LiveMessageFault = 'none' | 'duplicate' | 'reorder';
export const F1LIVE_MESSAGE_FAULTS: readonly F1LiveMessageFault[] = ['none', 'duplicate', 'reorder'];
/** `throttle`: what negotiate answers with its 429. */
export const F1LIVE_THROTTLE_RETRY_AFTER_S = 5;

export interface F1LiveReplayOptions {
  /** A recording id of packages/data's list (`2021-saudi-arabia-race`); never a path. */
  fixture: string;
  /** Replay speed (1 = real time, 0 = paused). Default 1. */
  speed?: number;
  /** Where to start in the recording, ms of stream time (`stream_offset`). Default 0. */
  positionMs?: number;
}

/**
 * Another simulator's replay to follow (demo mode: the OpenF1 simulator's live session), so both
 * feeds tell the same race at the same moment under the same session key.
 */
export interface F1LiveMirror {
  fixture: string;
  sessionKey: number;
  meetingKey: number;
  /** The recording's own instant (UTC ms) to show now: the other replay's start plus its position. */
  originalAtMs: number;
  speed: number;
}

export interface F1LiveSimOptions extends Partial<F1LiveReplayOptions> {
  now?: Clock;
  /** Refuse an upgrade that does not carry the load-balancer cookie of its negotiate. Default false. */
  requireCookie?: boolean;
  pingIntervalMs?: number;
  heartbeatIntervalMs?: number;
  /** Delay before the Subscribe result (slow snapshots). Default 0. */
  snapshotDelayMs?: number;
  mode?: F1LiveMode;
  /** Serve `/_control`. Default true. */
  controlRoutes?: boolean;
}

export interface F1LiveConnectionView {
  id: string;
  since: string;
  handshaken: boolean;
  topics: string[];
  authorized: boolean;
  framesSent: number;
}

export interface F1LiveSimState {
  mode: F1LiveMode;
  messageFault: F1LiveMessageFault;
  requireCookie: boolean;
  replay: {
    fixture: string;
    speed: number;
    positionMs: number;
    position: string;
    lengthMs: number;
    /** The recording's own time at the position (what feed timestamps say). */
    feedTime: string;
    eventsSent: number;
    events: number;
  };
  connections: F1LiveConnectionView[];
  counts: Record<string, number>;
}

export interface F1LiveSimControl {
  state(): F1LiveSimState;
  setMode(mode: F1LiveMode): void;
  /** Duplicates or reorders race-control messages on the feed (the fixtures hold two Utc inversions). */
  setMessageFault(fault: F1LiveMessageFault): void;
  requireCookie(required: boolean): void;
  /** Starts replaying a recording; open sockets get a close frame (allowReconnect) to fetch the new session. */
  replay(options: F1LiveReplayOptions): F1LiveSimState['replay'];
  /**
   * Follows another replay: its fixture, keys, position and speed, with feed times moved to the
   * present. A new session key closes open sockets like `replay`; the same one only re-times.
   * `null`: no session (an empty SessionInfo, SessionStatus Inactive, nothing to replay).
   */
  mirror(target: F1LiveMirror | null): void;
  setSpeed(speed: number): void;
  /** Sends `{"type":7,"error",…,"allowReconnect"}` to every socket and closes them. */
  closeAll(options?: { error?: string; allowReconnect?: boolean }): number;
  /** Abrupt TCP close of every socket. */
  dropAll(): number;
  /** Sends what has become due now (tests with a fake clock). */
  tick(): void;
}

export interface F1LiveSim {
  control: F1LiveSimControl;
  /** Register on Fastify (optionally under a prefix): `<prefix>/signalrcore/negotiate`, the upgrade on `<prefix>/signalrcore`. */
  plugin: FastifyPluginAsync;
  close(): Promise<void>;
}
