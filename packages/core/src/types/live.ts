import type { LightState } from '../flags/types.js';

// The live stream's wire shapes (DESIGN §5.4), shared by the server that sends them and the
// clients (web app, agent) that read them.

/** The data of an SSE `flag` event. */
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
  /** SPEC §8 text while upstream is failing, else null. */
  message: string | null;
}

/** One session that can be replayed (`GET /api/replays`): bundled with the app, or from OpenF1. */
export interface ReplayChoice {
  source: 'bundled' | 'openf1';
  id: string;
  year: number;
  meetingName: string;
  sessionName: string;
  sessionType: string;
  dateStart: string;
  /** Minutes into the recording where the session gets going (its first green light). */
  suggestedStartMinutes: number;
  messages?: number;
  lengthMinutes?: number | null;
}
