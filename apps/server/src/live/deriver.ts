import { createFlagFusion, readMessageDate, type FlagCause, type FusedLightChange } from '@flaglight/core';
import type { Bus } from './bus.js';
import type { FlagEvent, FlagEventData, StatusEventData, UpstreamStatus } from './types.js';

/** Identity of a race-control record, to drop the copy a push and a poll both deliver. */
function identity(message: Record<string, unknown>): string {
  return [
    message.date,
    message.category,
    message.flag,
    message.scope,
    message.sector,
    message.driver_number,
    message.message,
  ].join('|');
}

const SEEN_LIMIT = 5_000;

/**
 * Derives flag changes for one session with packages/core and publishes them on the bus: the
 * follower's common half, whatever feeds it (push, polling or a replay). Every change is
 * published (not one per poll), so push and polling give the same events for the same messages.
 * It feeds the fusion race control only (OpenF1), so the changes are the race-control rules of
 * DESIGN §6, each with `safetyCar` and `cause.source: 'race_control'` (decision 018).
 */
export class SessionDeriver {
  private readonly fusion = createFlagFusion();
  private readonly seen = new Map<string, number>();
  private lastCause: FlagCause | null = null;
  private nextId: number;
  /** Date text (and ms) of the newest message seen, for `date>` polling. */
  lastSeen: { text: string; ms: number } | null = null;
  private status: StatusEventData;
  snapshotPublished = false;

  constructor(
    readonly sessionKey: number,
    private readonly bus: Bus,
    private readonly now: () => number,
    lastId: number,
    /** What subscribers already hold: a snapshot that says the same is not sent again. */
    private readonly known: Pick<FlagEventData, 'state' | 'activeSectors'> | null = null,
  ) {
    // Ids grow with the clock, so a restarted follower (or another instance) never reuses one.
    this.nextId = Math.max(now() * 1000, lastId + 1);
    this.status = { sessionKey, upstream: 'starting', transport: 'none', message: null };
  }

  /** Drops records already seen, orders the rest oldest first, and keeps the dated ones. */
  private fresh(messages: readonly unknown[]): Record<string, unknown>[] {
    const out: { m: Record<string, unknown>; ms: number; i: number }[] = [];
    messages.forEach((m, i) => {
      if (typeof m !== 'object' || m === null) return;
      const record = m as Record<string, unknown>;
      if (record.session_key !== undefined && Number(record.session_key) !== this.sessionKey) return;
      const date = readMessageDate(record);
      if (!date) return;
      const key = identity(record);
      if (this.seen.has(key)) return;
      this.seen.set(key, date.ms);
      out.push({ m: record, ms: date.ms, i });
      if (!this.lastSeen || date.ms > this.lastSeen.ms) this.lastSeen = date;
    });
    if (this.seen.size > SEEN_LIMIT) this.pruneSeen();
    return out.sort((a, b) => a.ms - b.ms || a.i - b.i).map((e) => e.m);
  }

  private pruneSeen(): void {
    // Only records near the newest can come again (a poll overlapping a push).
    const keepAfter = (this.lastSeen?.ms ?? 0) - 10 * 60_000;
    for (const [key, ms] of this.seen) if (ms < keepAfter) this.seen.delete(key);
  }

  /** Applies messages silently (the history before following starts), then publishes the state once. */
  applyHistory(messages: readonly unknown[]): void {
    for (const message of this.fresh(messages)) {
      const change = this.push(message);
      if (change && change.state !== 'fastest_lap') this.lastCause = change.cause;
    }
    this.publishSnapshot();
  }

  publishSnapshot(): void {
    this.snapshotPublished = true;
    const state = this.fusion.state();
    const sectors = this.fusion.activeSectors();
    // A follower taking over (after a linger, or from another instance) repeats no state.
    if (this.known?.state === state && this.known.activeSectors.join() === sectors.join()) return;
    const emittedAt = new Date(this.now()).toISOString();
    this.publishChange({
      state,
      activeSectors: sectors,
      safetyCar: this.fusion.safetyCar(),
      cause: this.lastCause ?? { date: emittedAt, message: '', source: 'race_control' },
    });
  }

  /** Applies new messages and publishes every change they cause, in order. */
  ingest(messages: readonly unknown[]): number {
    let published = 0;
    for (const message of this.fresh(messages)) {
      const change = this.push(message);
      if (!change) continue;
      if (change.state !== 'fastest_lap') this.lastCause = change.cause;
      this.publishChange(change);
      published += 1;
    }
    return published;
  }

  private push(message: Record<string, unknown>): FusedLightChange | null {
    return this.fusion.push({ kind: 'race_control', at: this.now(), message });
  }

  private publishChange(
    change: Pick<FusedLightChange, 'state' | 'activeSectors' | 'safetyCar' | 'cause'>,
  ): void {
    const event: FlagEvent = {
      id: this.nextId++,
      data: {
        sessionKey: this.sessionKey,
        state: change.state,
        activeSectors: change.activeSectors,
        safetyCar: change.safetyCar,
        cause: change.cause,
        emittedAt: new Date(this.now()).toISOString(),
      },
    };
    this.bus.publish(this.sessionKey, { type: 'flag', event });
  }

  setStatus(upstream: UpstreamStatus, transport: StatusEventData['transport'], message: string | null): void {
    const s = this.status;
    if (s.upstream === upstream && s.transport === transport && s.message === message) return;
    this.status = { sessionKey: this.sessionKey, upstream, transport, message };
    this.bus.publish(this.sessionKey, { type: 'status', status: this.status });
  }

  currentStatus(): StatusEventData {
    return this.status;
  }
}
