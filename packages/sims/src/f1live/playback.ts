import { type Clock } from '../shared/clock.js';
import { deflateTopic } from './protocol.js';
import {
  emptyRecording,
  type FeedEvent,
  type FeedRecord,
  formatStreamOffset,
  loadRecording,
  type Recording,
  withKeys,
} from './recording.js';
import {
  F1LIVE_DEMO_FIXTURE,
  F1LIVE_GATED_TOPICS,
  type F1LiveMirror,
  type F1LiveSimOptions,
  type F1LiveSimState,
} from './types.js';

const REPLAYED_DEFAULTS: Record<string, FeedRecord> = {
  TrackStatus: { Status: '1', Message: 'AllClear' },
  SessionStatus: { Status: 'Inactive' },
};

export interface PlaybackOptions extends Pick<F1LiveSimOptions, 'fixture' | 'speed' | 'positionMs'> {
  now: Clock;
  /** Called when the next event has become due (send what `takeDue` gives). */
  onDue: () => void;
}

/** A recording played on the simulator's clock: where it is, what is due, what a snapshot holds. */
export interface Playback {
  readonly speed: number;
  position(): number;
  /** The feed's own time at a position: the recording's instant, moved by a mirror's shift. */
  feedTimeAt(pos: number): string;
  /** Topic states at the current position, for `topics` (gated ones only when `authorized`). */
  snapshot(topics: string[], authorized: boolean): Record<string, unknown>;
  /** A feed frame's data for an event (race control as an index-keyed `Messages` delta). */
  updateOf(event: FeedEvent): unknown;
  /** The events due by now that were not sent yet, in order; they count as sent. */
  takeDue(): FeedEvent[];
  view(): F1LiveSimState['replay'];
  /** Plays `recording` from `positionMs` at `speed`, unshifted. */
  restart(recording: Recording, speed: number, positionMs: number): void;
  /** No session: an empty recording, paused at its start. */
  clear(): void;
  /** Follows another replay (see `F1LiveSimControl.mirror`); true when it is a new session. */
  follow(target: F1LiveMirror): boolean;
  setSpeed(speed: number): void;
  /** Sends nothing already past, then waits for the next event. */
  start(): void;
  /** (Re)arms the timer for the next event. */
  schedule(): void;
  stop(): void;
}

function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

export function createPlayback(options: PlaybackOptions): Playback {
  const { now, onDue } = options;
  let recording: Recording = loadRecording(options.fixture ?? F1LIVE_DEMO_FIXTURE);
  /** Added to every feed time and race-control `Utc` (a mirrored replay happens now, not in 2021). */
  let shiftMs = 0;
  /** The mirrored session key, so a re-timed mirror of the same session keeps its sockets. */
  let mirroredKey: number | null = null;
  let speed = options.speed ?? 1;
  let basePos = options.positionMs ?? 0;
  let baseAt = now();
  /** Index of the next event to send. */
  let cursor = 0;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  function position(at = now()): number {
    return Math.min(recording.lengthMs, Math.max(0, basePos + (at - baseAt) * speed));
  }

  function feedTimeAt(pos: number): string {
    return isoAt(recording.streamStartMs + pos + shiftMs);
  }

  /** A race-control record as sent: its `Utc` moved by the mirror's shift, in the feed's own format. */
  function outward(event: FeedEvent): FeedRecord {
    if (shiftMs === 0 || event.topic !== 'RaceControlMessages' || typeof event.value.Utc !== 'string') {
      return event.value;
    }
    const utc = event.value.Utc;
    const ms = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(utc) ? utc : `${utc}Z`);
    if (Number.isNaN(ms)) return event.value;
    return { ...event.value, Utc: new Date(ms + shiftMs).toISOString().replace(/(\.000)?Z$/, '') };
  }

  function eventsBefore(pos: number): number {
    let n = 0;
    while (n < recording.events.length && recording.events[n]!.offsetMs <= pos) n += 1;
    return n;
  }

  function rebase(pos: number): void {
    basePos = pos;
    baseAt = now();
  }

  /** Topic states after the first `n` events, in the snapshot's shape (Messages as a list). */
  function stateAfter(n: number): Record<string, FeedRecord> {
    const state: Record<string, FeedRecord> = { SessionStatus: { ...REPLAYED_DEFAULTS.SessionStatus } };
    // A recording without TrackStatus lines has no TrackStatus topic: an invented AllClear would
    // tell clients the track is green when only race control knows.
    if (recording.events.some((event) => event.topic === 'TrackStatus')) {
      state.TrackStatus = { ...REPLAYED_DEFAULTS.TrackStatus };
    }
    const messages: FeedRecord[] = [];
    for (const event of recording.events.slice(0, n)) {
      if (event.topic === 'RaceControlMessages') messages[event.index ?? messages.length] = outward(event);
      else state[event.topic] = { ...state[event.topic], ...event.value };
    }
    state.RaceControlMessages = { Messages: Array.from(messages, (m) => m ?? {}) };
    return state;
  }

  function snapshot(topics: string[], authorized: boolean): Record<string, unknown> {
    const pos = position();
    const state = stateAfter(eventsBefore(pos));
    const feedTime = feedTimeAt(pos);
    const all: Record<string, unknown> = {
      ...state,
      SessionInfo: recording.sessionInfo,
      Heartbeat: { Utc: feedTime },
      ExtrapolatedClock: { Utc: feedTime, Remaining: '00:00:00', Extrapolating: false },
    };
    const result: Record<string, unknown> = {};
    for (const topic of topics) {
      if (topic in all) result[topic] = { ...(all[topic] as FeedRecord), _kf: true };
      else if ((F1LIVE_GATED_TOPICS as readonly string[]).includes(topic) && authorized) {
        result[topic] = deflateTopic({ Entries: [], _kf: true });
      }
    }
    return result;
  }

  function takeDue(): FeedEvent[] {
    const pos = position();
    const due: FeedEvent[] = [];
    while (cursor < recording.events.length && recording.events[cursor]!.offsetMs <= pos) {
      due.push(recording.events[cursor]!);
      cursor += 1;
    }
    return due;
  }

  function schedule(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = null;
    const next = recording.events[cursor];
    if (!next || speed <= 0) return;
    const wait = Math.max(0, (next.offsetMs - position()) / speed);
    timer = setTimeout(
      () => {
        timer = null;
        onDue();
        schedule();
      },
      Math.min(wait, 60_000),
    );
    timer.unref();
  }

  return {
    get speed() {
      return speed;
    },
    position: () => position(),
    feedTimeAt,
    snapshot,
    updateOf(event) {
      return event.topic === 'RaceControlMessages'
        ? { Messages: { [String(event.index ?? 0)]: outward(event) } }
        : event.value;
    },
    takeDue,
    view() {
      const pos = position();
      return {
        fixture: recording.id,
        speed,
        positionMs: Math.round(pos),
        position: formatStreamOffset(pos),
        lengthMs: recording.lengthMs,
        feedTime: feedTimeAt(pos),
        eventsSent: cursor,
        events: recording.events.length,
      };
    },
    restart(next, nextSpeed, positionMs) {
      recording = next;
      shiftMs = 0;
      mirroredKey = null;
      speed = nextSpeed;
      rebase(positionMs);
      cursor = eventsBefore(position());
    },
    clear() {
      recording = emptyRecording();
      mirroredKey = null;
      shiftMs = 0;
      speed = 0;
      rebase(0);
      cursor = 0;
    },
    follow(target) {
      const sameSession = mirroredKey === target.sessionKey && recording.id === target.fixture;
      if (!sameSession)
        recording = withKeys(loadRecording(target.fixture), target.sessionKey, target.meetingKey);
      const pos = Math.max(0, target.originalAtMs - recording.streamStartMs);
      shiftMs = now() - (recording.streamStartMs + pos);
      speed = target.speed;
      rebase(pos);
      if (!sameSession) {
        mirroredKey = target.sessionKey;
        cursor = eventsBefore(position());
      }
      return !sameSession;
    },
    setSpeed(next) {
      rebase(position());
      speed = next;
    },
    start() {
      cursor = eventsBefore(position());
      schedule();
    },
    schedule,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
