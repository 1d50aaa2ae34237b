// The live hub's types: what subscribers, replays and the hub's options look like, and its channels.
import type { Logger } from 'pino';
import type { OpenF1Client } from '../openf1/client.js';
import type { Bus, Lease } from './bus.js';
import type { TimerHandle, Timers } from './clock.js';
import type { F1Feed } from './f1-feed.js';
import type { Follower } from './follower.js';
import type { PushConnector } from './push.js';
import type { ReplayOwner } from './replay-slots.js';
import type { FlagEvent, StatusEventData } from './types.js';

export interface Listener {
  onFlag(event: FlagEvent): void;
  onStatus(status: StatusEventData): void;
  /** The replay was ended (its account started another): nothing more will come. */
  onEnded?(): void;
}

export interface Subscription {
  /** What the client gets first: the current state, or on resume every event it missed. */
  initial: FlagEvent[];
  status: StatusEventData | null;
  unsubscribe: () => void;
}

export interface ReplayDefinition {
  messages: readonly unknown[];
  speed: number;
  positionMs: number;
  /** What the replay is of, shown to clients. */
  info: Record<string, unknown>;
}

/** One session as the hub holds it (a live session or a replay). */
export interface Channel {
  sessionKey: number;
  kind: 'live' | 'replay';
  replay?: ReplayDefinition;
  /** Who started the replay (null: the server itself, or a test). */
  owner: ReplayOwner | null;
  ring: FlagEvent[];
  /** Latest lasting state (never a momentary fastest lap). */
  current: FlagEvent | null;
  lastId: number;
  status: StatusEventData | null;
  listeners: Set<Listener>;
  /** Live sessions go through the shared bus; replays through this instance's own. */
  bus: Bus;
  /** Asked for (live sessions): this instance follows upstream only while it holds the lease. */
  lease: Lease | null;
  follower: Follower | null;
  linger: TimerHandle | null;
  offBus: () => void;
  /** Settles once what other instances published before is in the ring. */
  loaded: Promise<void>;
}

export interface LiveHubOptions {
  client: OpenF1Client;
  bus: Bus;
  timers: Timers;
  logger?: Logger;
  connectPush?: PushConnector | undefined;
  /** The instance's F1 live-timing connection (absent when `F1_LIVE_TIMING=off`). */
  f1?: F1Feed | undefined;
}

/** `GET /api/live/sources`: which source drives the lights, and how each is doing. */
export interface LiveSourceView {
  name: 'f1-live-timing' | 'openf1';
  state: 'active' | 'standby' | 'down';
  lastMessageAt: string | null;
  error?: string;
}
