import { classifyMessage } from './classify.js';
import type { FlagMessage, LightChange, LightState, TrackState } from './types.js';

/** The incremental flag tracker of DESIGN §6. */
export interface FlagTracker {
  /** Applies one message; returns the light change it causes, or null. */
  push(message: unknown): LightChange | null;
  /** Applies the messages of one poll; returns at most one change, the final one, or null. */
  pushBatch(messages: readonly unknown[]): LightChange | null;
  /** The current lasting state (never fastest_lap). */
  state(): TrackState;
  /** Active yellow sectors, ascending. */
  activeSectors(): number[];
}

export interface FlagTrackerOptions {
  /** The state the lights already show; DESIGN §4: green on connect. */
  initialState?: TrackState;
}

/** Reads a record's date as ISO text and epoch ms, or null when it has none that parses. */
export function readMessageDate(message: unknown): { text: string; ms: number } | null {
  if (typeof message !== 'object' || message === null) return null;
  const date = (message as FlagMessage).date;
  if (typeof date !== 'string') return null;
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? null : { text: date, ms };
}

function readText(message: unknown): string {
  const text = (message as FlagMessage).message;
  return typeof text === 'string' ? text : '';
}

/** Creates a tracker that starts green with no active sectors. */
export function createFlagTracker(options: FlagTrackerOptions = {}): FlagTracker {
  let trackState: TrackState = options.initialState ?? 'green';
  const sectors = new Set<number>();
  let emitted: TrackState = trackState;

  const sortedSectors = (): number[] => [...sectors].sort((a, b) => a - b);

  const finalState = (): TrackState => {
    if (trackState !== 'green') return trackState;
    return sectors.size > 0 ? 'yellow' : 'green';
  };

  const makeChange = (state: LightState, date: string, message: unknown): LightChange => ({
    date,
    state,
    activeSectors: sortedSectors(),
    cause: { date, message: readText(message) },
  });

  /** Applies a message to the state; says whether it was a momentary fastest lap. */
  const apply = (message: unknown): 'fastest-lap' | 'applied' => {
    const effect = classifyMessage(message);
    switch (effect.kind) {
      case 'track':
        trackState = effect.state;
        if (effect.clearsSectors) sectors.clear();
        return 'applied';
      case 'sector-on':
        sectors.add(effect.sector);
        return 'applied';
      case 'sector-off':
        sectors.delete(effect.sector);
        return 'applied';
      case 'fastest-lap':
        return 'fastest-lap';
      case 'pit-exit-open':
        // The next qualifying part (or session) begins: the chequered flag is over.
        if (trackState === 'checkered') trackState = 'green';
        return 'applied';
      case 'none':
        return 'applied';
    }
  };

  const push = (message: unknown): LightChange | null => {
    // A change needs the date of its cause, so an undated record is skipped whole.
    const date = readMessageDate(message);
    if (date === null) return null;
    if (apply(message) === 'fastest-lap') return makeChange('fastest_lap', date.text, message);
    const state = finalState();
    if (state === emitted) return null;
    emitted = state;
    return makeChange(state, date.text, message);
  };

  const pushBatch = (messages: readonly unknown[]): LightChange | null => {
    const before = emitted;
    let lastChange: LightChange | null = null;
    let fastestLap: LightChange | null = null;
    for (const message of Array.isArray(messages) ? messages : []) {
      const change = push(message);
      if (change === null) continue;
      if (change.state === 'fastest_lap') fastestLap = change;
      else lastChange = change;
    }
    // Several messages of one poll give one change at most: the final state, if it differs.
    if (emitted !== before) {
      return { ...(lastChange as LightChange), activeSectors: sortedSectors() };
    }
    if (emitted === before && fastestLap !== null) {
      return { ...fastestLap, activeSectors: sortedSectors() };
    }
    return null;
  };

  return {
    push,
    pushBatch,
    state: finalState,
    activeSectors: sortedSectors,
  };
}

/**
 * Derives every light change of a whole stream. Messages are processed oldest first (a stable
 * sort by date, so arrival order breaks ties); records without a readable date are skipped.
 */
export function deriveLightChanges(messages: readonly unknown[]): LightChange[] {
  const list: readonly unknown[] = Array.isArray(messages) ? messages : [];
  const dated = list
    .map((message, index) => ({ message, index, date: readMessageDate(message) }))
    .filter(
      (entry): entry is { message: unknown; index: number; date: { text: string; ms: number } } =>
        entry.date !== null,
    )
    .sort((a, b) => a.date.ms - b.date.ms || a.index - b.index);
  const tracker = createFlagTracker();
  const changes: LightChange[] = [];
  for (const { message } of dated) {
    const change = tracker.push(message);
    if (change !== null) changes.push(change);
  }
  return changes;
}
