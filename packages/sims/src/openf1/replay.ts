import { type BundledSession, type RaceControlRow } from '@flaglight/data';
import { formatOpenF1Date } from '../shared/clock.js';

export interface ReplayOptions {
  /** A bundled recording: its id (`2021-saudi-arabia-race`) or its original session key. */
  fixture: string;
  /** Wall-clock instant (ms, or an ISO string) at which the recording's first message shows. Default: now. */
  startedAt?: number | string;
  /** Alternative to `startedAt`: the replay started this many (wall-clock) minutes ago. */
  startedMinutesAgo?: number;
  /** Alternative to `startedAt`: this many minutes of the recording have already played (at `speed`). */
  positionMinutes?: number;
  /** 1 = real time, 20 = twenty times faster, 0 = paused. Default: the sim's speed. */
  speed?: number;
  /** Keys of the live copy. Default: fresh ones from 100001 up, so they never clash with real keys. */
  sessionKey?: number;
  meetingKey?: number;
}

export interface ReplayInfo {
  fixture: string;
  sessionKey: number;
  meetingKey: number;
  originalSessionKey: number;
  speed: number;
  /** When offset 0 of the recording showed (ISO). */
  dateStart: string;
  /** When the recording's end shows at the current speed (ISO). */
  dateEnd: string;
  /** Recording position, ms after its first message. */
  positionMs: number;
  /** The recording's own date of its first message (ISO): with `positionMs`, the original moment shown. */
  recordingStart: string;
  lengthMs: number;
  visibleMessages: number;
  totalMessages: number;
  live: boolean;
}

interface Segment {
  /** Recording offset (ms) where this speed took over. */
  fromOffset: number;
  /** Wall-clock instant (ms) at which that offset showed. */
  wall: number;
  speed: number;
}

/**
 * A bundled recording replayed as if live. Offsets of the recording map to wall-clock instants through
 * speed segments, so changing the speed mid-replay never moves a message that has already shown.
 */
export class Replay {
  /** How many messages the push has already published. */
  published = 0;
  private segments: Segment[];

  constructor(
    readonly bundle: BundledSession,
    readonly sessionKey: number,
    readonly meetingKey: number,
    startedAt: number,
    speed: number,
  ) {
    this.segments = [{ fromOffset: 0, wall: startedAt, speed: Math.max(0, speed) }];
  }

  get startedAt(): number {
    return this.segments[0]!.wall;
  }

  get speed(): number {
    return this.segments[this.segments.length - 1]!.speed;
  }

  positionAt(t: number): number {
    let seg = this.segments[0]!;
    for (const s of this.segments) if (s.wall <= t) seg = s;
    return seg.fromOffset + (t - seg.wall) * seg.speed;
  }

  /** Wall-clock instant (whole ms) at which a recording offset shows; Infinity while paused before it. */
  visibleAt(offset: number): number {
    let seg = this.segments[0]!;
    for (const s of this.segments) if (s.fromOffset < offset) seg = s;
    const ahead = Math.max(0, offset - seg.fromOffset);
    if (ahead === 0) return Math.ceil(seg.wall);
    if (seg.speed === 0) return Infinity;
    return Math.ceil(seg.wall + ahead / seg.speed);
  }

  setSpeed(speed: number, t: number): void {
    const next = Math.max(0, speed);
    if (t <= this.startedAt) {
      this.segments = [{ fromOffset: 0, wall: this.startedAt, speed: next }];
      return;
    }
    const position = this.positionAt(t);
    this.segments = this.segments.filter((s) => s.wall < t);
    this.segments.push({ fromOffset: position, wall: t, speed: next });
  }

  messageVisibleAt(index: number): number {
    return this.visibleAt(this.bundle.offsets[index] ?? Infinity);
  }

  visibleCount(t: number): number {
    // Offsets never decrease, so the visible messages are a prefix.
    let n = 0;
    while (n < this.bundle.messages.length && this.messageVisibleAt(n) <= t) n += 1;
    return n;
  }

  /** The message as OpenF1 shows it live: this replay's keys, `date` = the instant it showed. */
  liveRow(index: number): RaceControlRow {
    const m = this.bundle.messages[index]!;
    return {
      ...m,
      date: formatOpenF1Date(this.messageVisibleAt(index)),
      session_key: this.sessionKey,
      meeting_key: this.meetingKey,
    };
  }

  rows(t: number): RaceControlRow[] {
    const n = this.visibleCount(t);
    const out: RaceControlRow[] = [];
    for (let i = 0; i < n; i += 1) out.push(this.liveRow(i));
    return out;
  }

  endsAt(): number {
    const end = this.visibleAt(this.bundle.lengthMs);
    return Number.isFinite(end) ? end : this.startedAt + this.bundle.lengthMs;
  }

  info(t: number): ReplayInfo {
    const end = this.endsAt();
    return {
      fixture: this.bundle.id,
      sessionKey: this.sessionKey,
      meetingKey: this.meetingKey,
      originalSessionKey: this.bundle.sessionKey,
      speed: this.speed,
      dateStart: formatOpenF1Date(this.startedAt),
      dateEnd: formatOpenF1Date(end),
      positionMs: Math.max(0, Math.min(this.bundle.lengthMs, Math.round(this.positionAt(t)))),
      recordingStart: new Date(
        Date.parse(this.bundle.messages[0]?.date ?? '') || this.bundle.scheduledStart,
      ).toISOString(),
      lengthMs: this.bundle.lengthMs,
      visibleMessages: this.visibleCount(t),
      totalMessages: this.bundle.messages.length,
      live: t >= this.startedAt && t < end,
    };
  }
}
