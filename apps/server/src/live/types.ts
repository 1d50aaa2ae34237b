import type { LightState } from '@flaglight/core';

/** DESIGN §5.4: the data of an SSE `flag` event. */
export interface FlagEventData {
  sessionKey: number;
  state: LightState;
  activeSectors: number[];
  cause: { date: string; message: string };
  emittedAt: string;
}

/** A flag event with its stream id (increasing per session, across follower restarts). */
export interface FlagEvent {
  id: number;
  data: FlagEventData;
}

export type UpstreamStatus = 'starting' | 'ok' | 'rate-limited' | 'unauthorized' | 'error';

/** How the follower of a session is doing upstream; sent as an SSE `status` event (no id). */
export interface StatusEventData {
  sessionKey: number;
  upstream: UpstreamStatus;
  transport: 'push' | 'polling' | 'replay' | 'none';
  /** SPEC §8 text when upstream is failing. */
  message: string | null;
}

export type BusMessage = { type: 'flag'; event: FlagEvent } | { type: 'status'; status: StatusEventData };
