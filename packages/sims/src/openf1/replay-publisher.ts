import { type Clock } from '../shared/clock.js';
import { requireBundledSession } from '../shared/recording-names.js';
import { type PushBroker, RACE_CONTROL_TOPIC } from './push.js';
import { Replay, type ReplayOptions } from './replay.js';

/** Replayed sessions get keys from here up, far above OpenF1's real ones (≈ 11 000 sessions, 1 300 meetings). */
export const FIRST_REPLAY_KEY = 100_001;

export function resolveStart(options: ReplayOptions, now: number, speed: number): number {
  if (typeof options.startedAt === 'number') return options.startedAt;
  if (typeof options.startedAt === 'string') {
    const ms = Date.parse(options.startedAt);
    if (Number.isNaN(ms)) throw new Error(`startedAt is not a date: ${options.startedAt}`);
    return ms;
  }
  if (options.positionMinutes !== undefined && speed > 0)
    return now - (options.positionMinutes * 60_000) / speed;
  return now - (options.startedMinutesAgo ?? 0) * 60_000;
}

/**
 * The replays running, and the push of their race-control messages: each message is published on
 * MQTT once it becomes visible, in order across replays, checked at least every `maxPushPollMs`.
 */
export class ReplayPublisher {
  replays: Replay[] = [];
  private nextKey = FIRST_REPLAY_KEY;
  private nextId = 1;
  private publishing: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly push: PushBroker,
    private readonly now: Clock,
    private readonly defaultSpeed: number,
    private readonly maxPushPollMs: number,
  ) {}

  get stopped(): boolean {
    return this.closed;
  }

  add(o: ReplayOptions): Replay {
    const bundle = requireBundledSession(o.fixture);
    const speed = o.speed ?? this.defaultSpeed;
    if (!Number.isFinite(speed) || speed < 0) throw new Error('speed must be a number ≥ 0');
    const key = this.nextKey++;
    // Placed at a position and paused: played up to it at speed 1, then paused there (speed 0
    // alone would leave it at the recording's start).
    const pausedAt = speed === 0 && o.positionMinutes !== undefined && o.startedAt === undefined;
    const now = this.now();
    const replay = new Replay(
      bundle,
      o.sessionKey ?? key,
      o.meetingKey ?? key,
      resolveStart(o, now, pausedAt ? 1 : speed),
      pausedAt ? 1 : speed,
    );
    if (pausedAt) replay.setSpeed(0, now);
    // What showed before the replay was set up happened "in the past": it is in REST, never pushed.
    replay.published = replay.visibleCount(this.now());
    this.replays.push(replay);
    this.schedule();
    return replay;
  }

  /** Publishes every message that became visible; resolves with how many once they are sent. */
  tick(): Promise<number> {
    const t = this.now();
    const due: { at: number; replay: Replay; index: number }[] = [];
    for (const r of this.replays) {
      const n = r.visibleCount(t);
      for (let i = r.published; i < n; i += 1) due.push({ at: r.messageVisibleAt(i), replay: r, index: i });
      r.published = Math.max(r.published, n);
    }
    due.sort((a, b) => a.at - b.at);
    const payloads = due.map(({ replay, index }) => ({
      ...replay.liveRow(index),
      _id: this.nextId++,
      _key: `${replay.sessionKey}_${index}`,
    }));
    const done = this.publishing.then(async () => {
      for (const p of payloads) await this.push.publish(RACE_CONTROL_TOPIC, p);
      return payloads.length;
    });
    this.publishing = done;
    return done;
  }

  /** Arms the next check: when the next message shows, or after `maxPushPollMs` at most. */
  schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    const t = this.now();
    let next = Infinity;
    for (const r of this.replays) {
      if (r.published < r.bundle.messages.length) next = Math.min(next, r.messageVisibleAt(r.published));
    }
    const wait = Math.min(this.maxPushPollMs, Math.max(1, next - t));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
      this.schedule();
    }, wait);
    this.timer.unref();
  }

  stop(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
