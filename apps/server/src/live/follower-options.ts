import type { Logger } from 'pino';
import type { OpenF1Client } from '../openf1/client.js';
import type { Bus } from './bus.js';
import type { Timers } from './clock.js';
import type { F1Feed } from './f1-feed.js';
import type { PushConnector } from './push.js';
import type { FlagEventData } from './types.js';

/** How one live source is doing for this follower. */
export interface SourceHealth {
  /** null until the source has answered once. */
  healthy: boolean | null;
  /** Clock (ms) of the last message or good answer; null before any. */
  lastMessageAt: number | null;
  error: string | null;
}

export interface LiveFollowerOptions {
  sessionKey: number;
  client: OpenF1Client;
  bus: Bus;
  timers: Timers;
  logger?: Logger;
  /** The push feed; without it (or without credentials) the follower only polls. */
  connectPush?: PushConnector | undefined;
  /** Highest event id this session has used, so ids keep increasing across restarts. */
  lastId?: number;
  /** The state subscribers already have (from a follower before this one, maybe on another instance). */
  known?: FlagEventData | null;
  /** The instance's F1 live-timing connection: the second source, preferred while healthy. */
  f1?: F1Feed | undefined;
}
