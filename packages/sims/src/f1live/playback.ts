import { type Clock } from '../shared/clock.js';
import { countEventsUpTo, snapshotAt, updateOfEvent } from './playback-state.js';
import {
  emptyRecording,
  type FeedEvent,
  formatStreamOffset,
  loadRecording,
  type Recording,
  withKeys,
} from './recording.js';
import {
  F1LIVE_DEMO_FIXTURE,
  type F1LiveMirror,
  type F1LiveSimOptions,
  type F1LiveSimState,
} from './types.js';

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

  function eventsBefore(pos: number): number {
    return countEventsUpTo(recording, pos);
  }

  function rebase(pos: number): void {
    basePos = pos;
    baseAt = now();
  }

  function snapshot(topics: string[], authorized: boolean): Record<string, unknown> {
    const pos = position();
    return snapshotAt({ recording, pos, feedTime: feedTimeAt(pos), shiftMs }, topics, authorized);
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
    updateOf: (event) => updateOfEvent(event, shiftMs),
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
