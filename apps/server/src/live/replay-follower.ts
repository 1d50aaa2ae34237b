import { readMessageDate } from '@flaglight/core';
import type { Bus } from './bus.js';
import type { TimerHandle, Timers } from './clock.js';
import { SessionDeriver } from './deriver.js';
import type { Follower } from './follower.js';

export interface ReplayFollowerOptions {
  sessionKey: number;
  /** The recorded race-control records of the session. */
  messages: readonly unknown[];
  /** 1 = real time … 20 = twenty times faster. */
  speed: number;
  /** Recording time already played when the replay starts, ms after its first message. */
  positionMs: number;
  bus: Bus;
  timers: Timers;
  lastId?: number;
}

/**
 * Plays a recorded session through the same derivation and bus as a live one, so a replay looks
 * exactly like live to the stream's clients: a record shows at its offset after the first one,
 * divided by the speed.
 */
export function startReplayFollower(options: ReplayFollowerOptions): Follower & { positionMs(): number } {
  const { timers, speed } = options;
  const dated = options.messages
    // The replay is its own session: its records carry its key, as a live copy would.
    .map((m) => (typeof m === 'object' && m !== null ? { ...m, session_key: options.sessionKey } : m))
    .map((m, i) => ({ m, i, date: readMessageDate(m) }))
    .filter((e): e is { m: unknown; i: number; date: { text: string; ms: number } } => e.date !== null)
    .sort((a, b) => a.date.ms - b.date.ms || a.i - b.i);
  const first = dated[0]?.date.ms ?? 0;
  const offsets = dated.map((e) => e.date.ms - first);
  const startedAt = timers.now() - options.positionMs / speed;
  const deriver = new SessionDeriver(options.sessionKey, options.bus, timers.now, options.lastId ?? 0);
  let next = offsets.findIndex((offset) => offset > options.positionMs);
  if (next === -1) next = dated.length;
  let timer: TimerHandle | null = null;
  let stopped = false;

  const position = () => (timers.now() - startedAt) * speed;

  function schedule(): void {
    if (stopped || next >= dated.length) return;
    const wait = Math.max(0, Math.ceil((offsets[next]! - position()) / speed));
    timer = timers.setTimeout(() => {
      timer = null;
      const now = position();
      const due: unknown[] = [];
      while (next < dated.length && offsets[next]! <= now) due.push(dated[next++]!.m);
      deriver.ingest(due);
      schedule();
    }, wait);
  }

  deriver.setStatus('ok', 'replay', null);
  deriver.applyHistory(dated.slice(0, next).map((e) => e.m));
  schedule();

  return {
    sessionKey: options.sessionKey,
    transport: () => 'replay',
    status: () => deriver.currentStatus(),
    positionMs: () => Math.min(position(), offsets[offsets.length - 1] ?? 0),
    stop() {
      stopped = true;
      if (timer) timers.clearTimeout(timer);
      deriver.setStatus('ok', 'none', null);
    },
  };
}
