import {
  DELAY_MAX_SECONDS,
  DELAY_MIN_SECONDS,
  DELAY_PRESET_CABLE_SECONDS,
  DELAY_PRESET_OFFICIAL_STREAMING_SECONDS,
  DELAY_PRESET_STREAMING_SECONDS,
} from '../constants.js';
import { toEpochMs, type Instant } from '../sessions/activity.js';

/** SPEC §2 broadcast delay presets. */
export const DELAY_PRESETS = [
  { id: 'cable', label: 'Cable/Satellite', seconds: DELAY_PRESET_CABLE_SECONDS },
  { id: 'streaming', label: 'Streaming Service', seconds: DELAY_PRESET_STREAMING_SECONDS },
  { id: 'f1tv', label: 'F1 TV', seconds: DELAY_PRESET_OFFICIAL_STREAMING_SECONDS },
] as const;

/** SPEC §4 texts of the reduce-delay confirmation. */
export const REDUCE_DELAY_TEXTS = {
  title: 'Reduce Broadcast Delay?',
  confirm: 'Yes, Reduce Delay',
  cancel: 'Cancel',
} as const;

/** SPEC §4: reducing the delay asks for confirmation; raising or keeping it does not. */
export function requiresReduceConfirmation(current: number, next: number): boolean {
  return next < current;
}

/** SPEC §4 calibration: seconds between start and mark, rounded, never negative. */
export function calibrateDelay(start: Instant, mark: Instant): number {
  return Math.max(0, Math.round((toEpochMs(mark) - toEpochMs(start)) / 1000));
}

/** Clamps a delay to the slider's range and whole seconds. */
export function clampDelayForSlider(seconds: number): number {
  if (!Number.isFinite(seconds)) return DELAY_MIN_SECONDS;
  return Math.min(DELAY_MAX_SECONDS, Math.max(DELAY_MIN_SECONDS, Math.round(seconds)));
}

/** The delay to apply in milliseconds: zero when disabled. */
export function getEffectiveDelayMs({ seconds, enabled }: { seconds: number; enabled: boolean }): number {
  return enabled && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}
