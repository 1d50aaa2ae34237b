// What the follower of the account's live session takes and tells.
import type { FlagEventData } from '@flaglight/core';
import type { ServerApi } from '../link/server-api.js';

export type StreamState =
  'connecting' | 'following' | 'polling' | 'waiting' | 'reconnecting' | 'refused' | 'unlinked' | 'stopped';

export interface FollowerStatus {
  state: StreamState;
  sessionKey: number | null;
  /** Why the companion is not following (server unreachable, trial ended, no live session...). */
  message: string | null;
  lastEventAt: number | null;
}

export interface DeliveredFlag {
  id: number;
  data: FlagEventData;
  /** Local time the event arrived. */
  receivedAt: number;
  /** How long ago the server emitted it, by the server's clock (0 when fresh or unknown). */
  ageMs: number;
}

export interface FollowerHandlers {
  /** Flags that arrived together (a resume's backlog is one batch), oldest first. */
  onFlags(flags: DeliveredFlag[]): void;
  onPreferences(document: unknown): void;
  /** Settings → Test your lights, relayed by the server to this companion. */
  onTest(state: string): void;
  /** The companion's token no longer works: it was unlinked (or the account deleted). */
  onUnlinked(message: string): void;
  onStatus(status: FollowerStatus): void;
  /** The stream (re)opened: preferences may have changed meanwhile. */
  onConnected?(): void;
}

export interface FollowerOptions {
  api: ServerApi;
  token: string;
  handlers: FollowerHandlers;
  now?: () => number;
  /** Reconnect back-off: 1, 2, 4 … 30 s, with jitter. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** No byte for this long (heartbeats come every 15 s): the stream is taken as dead. */
  watchdogMs?: number;
  /** How often to ask whether another session went live (the stream stays on the one it opened). */
  sessionCheckMs?: number;
  /** With no live session, ask again this often. */
  idleCheckMs?: number;
  /** A tick gap above this means the computer slept: reconnect at once. */
  sleepGapMs?: number;
  /** How often the sleep check ticks (5 s). */
  tickMs?: number;
  /** Stream opens that fail in a row (tickets working) before polling instead. */
  streamAttemptsBeforePolling?: number;
  /**
   * Refused by the account (an ended trial): asked again every `refusalRetryMs` (30 s) for the first
   * `refusalFastForMs` (10 min), when a fan who just saw it most likely pays, then every
   * `refusalSlowRetryMs` (5 min).
   */
  refusalRetryMs?: number;
  refusalFastForMs?: number;
  refusalSlowRetryMs?: number;
}

export interface Follower {
  status(): FollowerStatus;
  /** Reconnect now (network back, woken from sleep). */
  kick(): void;
  stop(): Promise<void>;
}
