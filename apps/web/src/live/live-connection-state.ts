import type { CurrentLiveSessionData, FlagTimeline } from '@flaglight/core';
import type { FlagState } from '../flags/flag-styles';
import { isFinalRefusal, type FeedTransport } from './live-feed';

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected';

/**
 * While connected: whether the server is heard. `lost`: the stream broke or fell silent (or polls
 * go unanswered) and the feed is trying again; `regained`: it came back a moment ago (the page says
 * so for RECONNECTED_NOTICE_MS); `ok` otherwise.
 */
export type ConnectionLink = 'ok' | 'lost' | 'regained';

/** How long "Connected again" shows after the server answers again. */
export const RECONNECTED_NOTICE_MS = 6_000;

/** What to follow: the live session, or a replay started through the server. */
export type LiveTarget =
  | { kind: 'live'; session: CurrentLiveSessionData | null }
  | {
      kind: 'replay';
      sessionKey: number;
      title: string;
      /** The recording's session name ("Practice 2"): whether the lights follow it. */
      sessionName?: string;
      speed: number;
      startMinutes: number;
      /** The recording, to start it again at another minute (a jump along its timeline). */
      source?: 'bundled' | 'openf1';
      id?: string;
      /** The whole recording's flags, on the replay's clock (bundled recordings). */
      timeline?: FlagTimeline;
    };

export interface ShownFlag {
  flag: FlagState;
  activeSectors: number[];
  cause: { date: string; message: string } | null;
  /** Epoch ms it took effect on the panel (and on the lights). */
  at: number;
}

export interface PendingChange {
  id: number;
  flag: FlagState;
  at: number;
}

export interface LiveConnectionState {
  status: ConnectionStatus;
  link: ConnectionLink;
  target: LiveTarget | null;
  sessionKey: number | null;
  transport: FeedTransport | null;
  shown: ShownFlag;
  /** A fastest lap shows for a moment beside the lasting flag. */
  momentary: ShownFlag | null;
  pending: PendingChange[];
  /** SPEC §8 text while the server's upstream is failing. */
  upstreamMessage: string | null;
  /** Recent changes, newest first. */
  history: ShownFlag[];
  /** Every lasting flag shown since connecting, oldest first: the session's timeline grows from it. */
  flags: ShownFlag[];
  /** Epoch ms of the last connect (the timeline's start), or null while disconnected. */
  connectedAt: number | null;
  /** Why the last connect failed (shown under the button). */
  error: string | null;
  /** The last connect failed on something passing (no answer, a server error), not on a refusal. */
  retryable: boolean;
  /** Epoch ms of the last failed connect: each failure is its own, even with the same words. */
  failedAt: number | null;
}

export const HISTORY_LENGTH = 12;
/** Far more changes than any session has (a race has ≈ 50): only a runaway feed reaches it. */
export const TIMELINE_FLAGS_LENGTH = 2_000;

const GREEN = (at: number): ShownFlag => ({ flag: 'green', activeSectors: [], cause: null, at });

export const INITIAL_CONNECTION_STATE: LiveConnectionState = {
  status: 'disconnected',
  link: 'ok',
  target: null,
  sessionKey: null,
  transport: null,
  shown: GREEN(0),
  momentary: null,
  pending: [],
  upstreamMessage: null,
  history: [],
  flags: [],
  connectedAt: null,
  error: null,
  retryable: false,
  failedAt: null,
};

/** A connect starts from scratch, keeping the history (and, for a replay moved along, its flag). */
export function connectingState(
  current: LiveConnectionState,
  target: LiveTarget,
  now: number,
  resume: boolean,
): LiveConnectionState {
  return {
    ...INITIAL_CONNECTION_STATE,
    history: current.history,
    status: 'connecting',
    // A connect while the server was out of reach (auto-connect moving to the session the
    // restarted server follows) says "Connected again" too once it is connected.
    link: current.link === 'ok' ? 'ok' : 'lost',
    target,
    shown: resume ? current.shown : GREEN(now),
    connectedAt: now,
  };
}

/** A failed connect: disconnected, with why, and whether trying again may help. */
export function failedState(current: LiveConnectionState, error: Error): LiveConnectionState {
  return {
    ...INITIAL_CONNECTION_STATE,
    history: current.history,
    shown: GREEN(Date.now()),
    error: error.message,
    retryable: !isFinalRefusal(error),
    failedAt: Date.now(),
  };
}

/** A disconnect: back to green, only the history kept. */
export function disconnectedState(current: LiveConnectionState): LiveConnectionState {
  return { ...INITIAL_CONNECTION_STATE, history: current.history, shown: GREEN(Date.now()) };
}
