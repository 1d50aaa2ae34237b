import type { RaceControlMessage } from '../types/race-control.js';

/** The states a light change can carry (DESIGN §5.2). */
export const LIGHT_STATES = [
  'green',
  'yellow',
  'red',
  'checkered',
  'vsc',
  'vsc_ending',
  'fastest_lap',
] as const;
export type LightState = (typeof LIGHT_STATES)[number];

/** The flags an effect can play: the light states plus the SPEC test button 'safety'. */
export const EFFECT_FLAGS = [
  'green',
  'red',
  'yellow',
  'checkered',
  'safety',
  'vsc',
  'vsc_ending',
  'fastest_lap',
] as const;
export type EffectFlag = (typeof EFFECT_FLAGS)[number];

/** The lasting track-wide state; fastest_lap is momentary and never lasts. */
export type TrackState = Exclude<LightState, 'fastest_lap'>;

/**
 * Whether a flag is momentary: it plays over the lasting flag, the lights go back to that flag,
 * and nothing that waits on the lasting flag (the green-held wait, the session's end, the room's
 * snapshot, the server's current flag) counts it. Only the fastest lap is.
 */
export function isMomentary(flag: string): flag is 'fastest_lap' {
  return flag === 'fastest_lap';
}

/** One light change: `date` is the date of the message that caused it. */
export interface LightChange {
  date: string;
  state: LightState;
  activeSectors: number[];
  cause: { date: string; message: string };
}

/** The tracker's input: a lenient OpenF1 race-control record. */
export type FlagMessage = Partial<RaceControlMessage>;
