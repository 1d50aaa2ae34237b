// The OpenF1 simulator's control surface (tests, demo mode, the `/_control` routes), in its own
// file so the control routes take it without importing the simulator that serves them.
import type { ActiveFault, FaultSpec } from '../shared/faults.js';
import type { LoggedRequest } from '../shared/request-log.js';
import type { ReplayInfo, ReplayOptions } from './replay.js';

export interface OpenF1SimControl {
  /** Adds a session replayed as live; returns what it looks like now. */
  replay(options: ReplayOptions): ReplayInfo;
  /** Replaces every live replay. */
  setReplays(options: ReplayOptions[]): ReplayInfo[];
  clearReplays(): void;
  replays(): ReplayInfo[];
  /** Changes the speed of every replay from now on (already visible messages keep their dates). */
  setSpeed(speed: number): void;
  fault(spec: FaultSpec): ActiveFault;
  clearFaults(): void;
  faults(): ActiveFault[];
  requireToken(required: boolean): void;
  setRateLimit(limit: { max: number; windowMs: number } | null): void;
  /** Closes every MQTT connection; with `refuseForMs`, refuses new ones for that long (sim clock). */
  dropPush(options?: { refuseForMs?: number }): number;
  pushClients(): number;
  /** Publishes every message that has become visible; resolves with how many were published. */
  tick(): Promise<number>;
  /** Upstream calls: all, or one path (`/v1/race_control`), optionally since an instant (sim clock). */
  requestCount(path?: string, since?: number): number;
  requestCounts(): Record<string, number>;
  requestLog(): LoggedRequest[];
  resetRequests(): void;
  /** A valid access token without going through `POST /token`. */
  issueToken(username?: string): string;
  /** Invalidates every token (to test refreshing). */
  expireTokens(): void;
  now(): number;
}
