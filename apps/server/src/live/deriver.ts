import {
  createFlagFusion,
  isMomentary,
  readMessageDate,
  type FlagCause,
  type FusedLightChange,
} from '@flaglight/core';
import type { Bus } from './bus.js';
import type { TimerHandle, Timers } from './clock.js';
import type { FlagEvent, FlagEventData, StatusEventData, UpstreamStatus } from './types.js';

/** What a race-control record says, whatever feed brought it and whatever date it carries. */
function content(message: Record<string, unknown>): string {
  const part = (value: unknown) =>
    typeof value === 'string' ? value.trim().toUpperCase() : typeof value === 'number' ? String(value) : '';
  return [
    message.category,
    message.flag,
    message.scope,
    message.sector,
    message.driver_number,
    message.message,
  ]
    .map(part)
    .join('|');
}

/** The live sources a session is followed from (decision 021). */
export type LiveSourceName = 'openf1' | 'f1-live-timing';

/**
 * `live`: arrived now, a duplicate is the other feed's copy of the same moment. `history`: a
 * feed's account of the session so far (OpenF1's first poll, F1's snapshot), whose copies may have
 * come from the other feed long before.
 */
export type IngestMode = 'live' | 'history';

/** The other feed's copy of a message arrives within this long (OpenF1 trails F1 by seconds). */
export const CROSS_SOURCE_WINDOW_MS = 30_000;
/** …or carries a date this close to it (OpenF1 and F1 stamp a message with the same `Utc`). */
const SAME_DATE_MS = 5_000;

interface Seen {
  source: LiveSourceName;
  dateMs: number;
  dateText: string;
  at: number;
  /** Already paired with the other feed's copy. */
  matched: boolean;
}

const SEEN_LIMIT = 5_000;

/**
 * Derives flag changes for one session with packages/core and publishes them on the bus: the
 * follower's common half, whatever feeds it (push, polling or a replay). Every change is
 * published (not one per poll), so push and polling give the same events for the same messages.
 * Both live sources feed one fusion (decision 021): race control from OpenF1 and from F1 live
 * timing (each message once, whichever feed brings it first), TrackStatus and SessionStatus from
 * F1 live timing; without TrackStatus the race-control rules of DESIGN §6 apply (decision 018).
 */
export class SessionDeriver {
  private readonly fusion = createFlagFusion();
  /** Per message content, the copies seen (oldest first). */
  private readonly seen = new Map<string, Seen[]>();
  private seenCount = 0;
  private lastCause: FlagCause | null = null;
  /** The lasting state subscribers were last told (a snapshot, a change). */
  private told: { state: string; sectors: string; safetyCar: boolean } | null;
  private nextId: number;
  /** Date text (and ms) of the newest OpenF1 message seen, for `date>` polling. */
  lastSeen: { text: string; ms: number } | null = null;
  private status: StatusEventData;
  snapshotPublished = false;
  /** Fires when a race-control lead TrackStatus has not confirmed is due to be withdrawn. */
  private deadlineTimer: TimerHandle | null = null;

  constructor(
    readonly sessionKey: number,
    private readonly bus: Bus,
    private readonly now: () => number,
    lastId: number,
    /** What subscribers already hold: a snapshot that says the same is not sent again. */
    private readonly known: Pick<FlagEventData, 'state' | 'activeSectors'> | null = null,
    /** Withdraws an unconfirmed race-control lead at its deadline (decision 025); without it, at the next line. */
    private readonly timers: Pick<Timers, 'setTimeout' | 'clearTimeout'> | null = null,
  ) {
    // Ids grow with the clock, so a restarted follower (or another instance) never reuses one.
    this.nextId = Math.max(now() * 1000, lastId + 1);
    this.status = { sessionKey, upstream: 'starting', transport: 'none', message: null };
    this.told = known ? { state: known.state, sectors: known.activeSectors.join(), safetyCar: false } : null;
  }

  /**
   * True when this record was seen before: the same feed's copy (a poll overlapping the push), or
   * the other feed's copy of the same message (both follow the session), which is paired once.
   */
  private duplicate(
    record: Record<string, unknown>,
    date: { text: string; ms: number },
    source: LiveSourceName,
    mode: IngestMode,
  ): boolean {
    const key = content(record);
    const copies = this.seen.get(key) ?? [];
    if (copies.some((c) => c.source === source && c.dateText === date.text)) return true;
    const at = this.now();
    const twin = copies.find(
      (c) =>
        c.source !== source &&
        !c.matched &&
        (mode === 'history' ||
          Math.abs(at - c.at) <= CROSS_SOURCE_WINDOW_MS ||
          Math.abs(date.ms - c.dateMs) <= SAME_DATE_MS),
    );
    copies.push({ source, dateMs: date.ms, dateText: date.text, at, matched: twin !== undefined });
    if (twin) twin.matched = true;
    this.seen.set(key, copies);
    this.seenCount += 1;
    return twin !== undefined;
  }

  /** Drops records already seen, orders the rest oldest first, and keeps the dated ones. */
  private fresh(
    messages: readonly unknown[],
    source: LiveSourceName,
    mode: IngestMode,
  ): Record<string, unknown>[] {
    const out: { m: Record<string, unknown>; ms: number; i: number }[] = [];
    messages.forEach((m, i) => {
      if (typeof m !== 'object' || m === null) return;
      const record = m as Record<string, unknown>;
      if (
        record.session_key !== undefined &&
        record.session_key !== null &&
        Number(record.session_key) !== this.sessionKey
      ) {
        return;
      }
      const date = readMessageDate(record);
      if (!date) return;
      if (source === 'openf1' && (!this.lastSeen || date.ms > this.lastSeen.ms)) this.lastSeen = date;
      if (this.duplicate(record, date, source, mode)) return;
      out.push({ m: record, ms: date.ms, i });
    });
    if (this.seenCount > SEEN_LIMIT) this.pruneSeen();
    return out.sort((a, b) => a.ms - b.ms || a.i - b.i).map((e) => e.m);
  }

  private pruneSeen(): void {
    // Only copies near the newest can come again (a poll overlapping a push, the other feed).
    const keepAfter = this.now() - 10 * 60_000;
    this.seenCount = 0;
    for (const [key, copies] of this.seen) {
      const kept = copies.filter((c) => c.at >= keepAfter);
      if (kept.length === 0) this.seen.delete(key);
      else this.seen.set(key, kept);
      this.seenCount += kept.length;
    }
  }

  /** Applies messages silently (the history before following starts), then publishes the state once. */
  applyHistory(
    messages: readonly unknown[],
    source: LiveSourceName = 'openf1',
    options: { publish?: boolean } = {},
  ): void {
    for (const message of this.fresh(messages, source, 'history')) {
      const change = this.push(message);
      if (change && !isMomentary(change.state)) this.lastCause = change.cause;
    }
    if (options.publish !== false) this.publishSnapshot();
  }

  publishSnapshot(): void {
    this.snapshotPublished = true;
    this.publishIfNew();
  }

  /** Publishes the fused state unless subscribers were told exactly that last. */
  private publishIfNew(): void {
    const state = this.fusion.state();
    const sectors = this.fusion.activeSectors();
    const safetyCar = this.fusion.safetyCar();
    const told = this.told;
    // A follower taking over (after a linger, or from another instance) repeats no state.
    if (
      told?.state === state &&
      told.sectors === sectors.join() &&
      (told.safetyCar === safetyCar || this.known)
    ) {
      return;
    }
    const emittedAt = new Date(this.now()).toISOString();
    this.publishChange({
      state,
      activeSectors: sectors,
      safetyCar,
      cause: this.lastCause ?? { date: emittedAt, message: '', source: 'race_control' },
    });
  }

  /**
   * A feed's account of the session so far, after subscribers were told the state: OpenF1's
   * first answer after F1 live timing told it, F1's snapshot after a reconnect. What the other feed
   * already brought is dropped; what is left is old news, applied silently, and only the state it
   * leads to is published, once, if it differs from what subscribers hold.
   */
  reconcile(messages: readonly unknown[], source: LiveSourceName): void {
    if (!this.snapshotPublished) {
      this.applyHistory(messages, source, { publish: false });
      return;
    }
    let applied = 0;
    for (const message of this.fresh(messages, source, 'history')) {
      const change = this.push(message);
      if (change && !isMomentary(change.state)) this.lastCause = change.cause;
      applied += 1;
    }
    if (applied > 0) this.publishIfNew();
  }

  /** Applies new messages and publishes every change they cause, in order. */
  ingest(messages: readonly unknown[], source: LiveSourceName = 'openf1', mode: IngestMode = 'live'): number {
    let published = 0;
    for (const message of this.fresh(messages, source, mode)) {
      const change = this.push(message);
      if (!change) continue;
      if (!isMomentary(change.state)) this.lastCause = change.cause;
      this.publishChange(change);
      published += 1;
    }
    return published;
  }

  private push(message: Record<string, unknown>): FusedLightChange | null {
    const change = this.fusion.push({ kind: 'race_control', at: this.now(), message });
    this.armDeadline();
    return change;
  }

  /** Keeps one timer on the fusion's next lead deadline: TrackStatus decides again then. */
  private armDeadline(): void {
    if (!this.timers) return;
    if (this.deadlineTimer) this.timers.clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    const deadline = this.fusion.nextDeadline();
    if (deadline === null) return;
    this.deadlineTimer = this.timers.setTimeout(
      () => {
        this.deadlineTimer = null;
        this.pushFeed({ kind: 'clock' });
      },
      Math.max(0, deadline - this.now()),
    );
  }

  /** Stops the deadline timer (the follower stopped). */
  dispose(): void {
    if (this.deadlineTimer) this.timers?.clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
  }

  /**
   * F1 live timing's TrackStatus (`{Status, Message}`), SessionStatus, or its loss. Before the
   * snapshot they only set the state the snapshot publishes; after it a change is published.
   */
  pushFeed(
    input:
      | { kind: 'track_status'; status: unknown; date?: string }
      | { kind: 'session_status'; status: unknown }
      | { kind: 'track_status_lost' }
      | { kind: 'clock' },
  ): void {
    const change = this.fusion.push({ ...input, at: this.now() });
    this.armDeadline();
    if (!change || !this.snapshotPublished) {
      if (change) this.lastCause = change.cause;
      return;
    }
    this.lastCause = change.cause;
    this.publishChange(change);
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
    if (!isMomentary(change.state)) {
      this.told = { state: change.state, sectors: change.activeSectors.join(), safetyCar: change.safetyCar };
    }
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
