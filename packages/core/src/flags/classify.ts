import type { FlagMessage, TrackState } from './types.js';

/** What one race-control message does to the flag state. */
export type FlagEffect =
  | { kind: 'track'; state: TrackState; clearsSectors: boolean }
  | { kind: 'sector-on'; sector: number }
  | { kind: 'sector-off'; sector: number }
  | { kind: 'fastest-lap' }
  /**
   * The pit exit opens ("GREEN LIGHT - PIT EXIT OPEN"): a session or a qualifying part begins. It
   * is not a flag for the whole track: it ends a chequered flag and nothing else.
   */
  | { kind: 'pit-exit-open' }
  | { kind: 'none' };

const NONE: FlagEffect = { kind: 'none' };

function normalise(value: unknown): string {
  return typeof value === 'string' ? value.trim().toUpperCase() : '';
}

function readSector(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function classifySafetyCar(text: string): FlagEffect {
  if (text.includes('VSC ENDING') || text.includes('VIRTUAL SAFETY CAR ENDING')) {
    return { kind: 'track', state: 'vsc_ending', clearsSectors: false };
  }
  if (text.includes('VSC DEPLOYED') || text.includes('VIRTUAL SAFETY CAR')) {
    return { kind: 'track', state: 'vsc', clearsSectors: false };
  }
  // A safety car plays the yellow light (DESIGN §6).
  return { kind: 'track', state: 'yellow', clearsSectors: false };
}

/**
 * Race control's pit-lane notices: "GREEN LIGHT - PIT EXIT OPEN" (category Flag or PitExit, flag
 * GREEN or OPEN, scope Track), "PIT EXIT CLOSED", "PIT LANE ENTRY CLOSED" and the like. Some carry
 * scope Track, but none is a flag for the whole track (decision 025): the pit exit opens during a
 * VSC in practice, a minute before the VSC ends.
 */
const PIT_LANE_TEXT = /\bPIT[ -](EXIT|ENTRY|LANE)\b/;

/** True when a race-control text is a pit-lane notice, never a track-wide flag (decision 025). */
export function isPitLaneNotice(text: unknown): boolean {
  return typeof text === 'string' && PIT_LANE_TEXT.test(text.toUpperCase());
}

function classifyPitLane(text: string): FlagEffect {
  return text.includes('PIT EXIT OPEN') ? { kind: 'pit-exit-open' } : NONE;
}

function classifyTrackFlag(flag: string): FlagEffect {
  switch (flag) {
    case 'RED':
      return { kind: 'track', state: 'red', clearsSectors: true };
    case 'GREEN':
    case 'CLEAR':
      return { kind: 'track', state: 'green', clearsSectors: true };
    case 'CHEQUERED':
      return { kind: 'track', state: 'checkered', clearsSectors: true };
    default:
      return NONE;
  }
}

function classifySectorFlag(flag: string, sectorValue: unknown): FlagEffect {
  const sector = readSector(sectorValue);
  if (sector === null) return NONE;
  if (flag === 'YELLOW' || flag === 'DOUBLE YELLOW') return { kind: 'sector-on', sector };
  if (flag === 'CLEAR' || flag === 'GREEN') return { kind: 'sector-off', sector };
  return NONE;
}

/**
 * Classifies one race-control message by DESIGN §6 "Flag derivation", with one exception
 * (decision 025): a pit-lane notice is never a track-wide flag, whatever its scope; the pit exit
 * opening only ends a chequered flag. Never throws: a record that is not an object, or lacks the
 * fields a rule needs, does nothing.
 */
export function classifyMessage(message: unknown): FlagEffect {
  if (typeof message !== 'object' || message === null) return NONE;
  const record = message as FlagMessage;
  const text = normalise(record.message);
  if (text.startsWith('FASTEST LAP')) return { kind: 'fastest-lap' };
  const category = normalise(record.category);
  if (isPitLaneNotice(text) && category !== 'SAFETYCAR' && category !== 'VIRTUALSAFETYCAR') {
    return classifyPitLane(text);
  }
  if (category === 'SAFETYCAR' || category === 'VIRTUALSAFETYCAR') return classifySafetyCar(text);
  if (category !== 'FLAG') return NONE;
  const scope = normalise(record.scope);
  const flag = normalise(record.flag);
  if (scope === 'TRACK') return classifyTrackFlag(flag);
  if (scope === 'SECTOR') return classifySectorFlag(flag, record.sector);
  return NONE;
}
