import type { Preferences } from '@flaglight/contract';
import { PREFERENCES_MAX_DEVICE_OFFSETS } from '@flaglight/contract/limits';
import { getEffectiveDelayMs } from '@flaglight/core';

/**
 * The range the control offers: enough for one room on a streaming service next to one on cable.
 * The server accepts more (±`PREFERENCES_MAX_OFFSET_MS`), so a value stored by another client may lie
 * outside it; that value is shown as it is and kept until the user saves a new one.
 */
export const ROOM_OFFSET_MIN_MS = -5_000;
export const ROOM_OFFSET_MAX_MS = 10_000;
export const ROOM_OFFSET_STEP_MS = 100;

export const ROOM_DELAY_TEXTS = {
  label: "This room's extra delay",
  inputLabel: "This room's extra delay in seconds",
  decrease: 'Less extra delay for this room (0.1 s)',
  increase: 'More extra delay for this room (0.1 s)',
  save: 'Save room delay',
  saving: 'Saving…',
  reset: 'Undo change',
  loading: "Loading this room's delay…",
  loadFailed: "This room's delay could not be loaded. Please try again.",
  retry: 'Try again',
  notANumber: 'Enter the extra delay in seconds, for example 2.5 or -1.',
  saveFailed: "This room's delay could not be saved. Your change is kept here; please try again.",
  calibrate: 'Calibrate this room',
  calibrateTitle: 'Calibrate this room',
  calibrateScreen: "this room's TV",
} as const;

export function outOfRangeText(): string {
  return `The extra delay must be between ${formatOffset(ROOM_OFFSET_MIN_MS)} and ${formatOffset(ROOM_OFFSET_MAX_MS)}.`;
}

/** 2500 → "2.5", 5000 → "5", -1500 → "1.5" (unsigned; at most one decimal). */
function plainSeconds(ms: number): string {
  return String(Math.round(Math.abs(ms) / ROOM_OFFSET_STEP_MS) / 10);
}

/** A delay in seconds for people: 7500 → "7.5 s". */
export function formatSeconds(ms: number): string {
  return `${ms < 0 ? '−' : ''}${plainSeconds(ms)} s`;
}

/** An offset with its sign: 2500 → "+2.5 s", -1500 → "−1.5 s", 0 → "0 s". */
export function formatOffset(ms: number): string {
  if (Math.round(ms / ROOM_OFFSET_STEP_MS) === 0) return '0 s';
  return `${ms > 0 ? '+' : '−'}${plainSeconds(ms)} s`;
}

/** The same for the text field: 2500 → "2.5", -1500 → "-1.5". */
export function offsetInputText(ms: number): string {
  return `${ms < 0 ? '-' : ''}${plainSeconds(ms)}`;
}

/** A value on the control's grid: whole tenths of a second, inside its range. */
export function clampRoomOffset(ms: number): number {
  if (!Number.isFinite(ms)) return 0;
  const stepped = Math.round(ms / ROOM_OFFSET_STEP_MS) * ROOM_OFFSET_STEP_MS;
  return Math.min(ROOM_OFFSET_MAX_MS, Math.max(ROOM_OFFSET_MIN_MS, stepped)) || 0;
}

export function isInRoomRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= ROOM_OFFSET_MIN_MS && ms <= ROOM_OFFSET_MAX_MS;
}

export type OffsetParse = { ok: true; ms: number } | { ok: false; error: string };

/**
 * Seconds as typed ("2.5", "+2,5", "−1") → milliseconds on the 0.1 s grid. Not a number and values
 * outside the range are refused rather than clamped, so nothing the user did not mean is saved.
 */
export function parseOffsetInput(text: string): OffsetParse {
  const normalized = text.trim().replace(/\s+/g, '').replace('−', '-').replace(',', '.').replace(/s$/i, '');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(normalized))
    return { ok: false, error: ROOM_DELAY_TEXTS.notANumber };
  const seconds = Number(normalized);
  if (!Number.isFinite(seconds)) return { ok: false, error: ROOM_DELAY_TEXTS.notANumber };
  const ms = Math.round(seconds * 10) * ROOM_OFFSET_STEP_MS;
  if (!isInRoomRange(ms)) return { ok: false, error: outOfRangeText() };
  return { ok: true, ms: ms || 0 };
}

/** The broadcast delay the companion starts from: 0 when the delay is switched off. */
export function accountDelayMs(preferences: Preferences): number {
  return getEffectiveDelayMs(preferences.delay);
}

/**
 * "This room: 7.5 s = 5 s broadcast delay + 2.5 s". The companion never waits less than nothing,
 * so a sum below zero is shown as 0 s with the reason.
 */
export function describeRoomDelay(baseMs: number, offsetMs: number, delayEnabled: boolean): string {
  const base = `${formatSeconds(baseMs)} broadcast delay${delayEnabled ? '' : ' (off)'}`;
  const sign = offsetMs < 0 ? '−' : '+';
  const sum = `${base} ${sign} ${plainSeconds(offsetMs)} s`;
  const total = baseMs + offsetMs;
  if (total < 0) return `This room: 0 s (${sum} is below zero, so this room does not wait)`;
  return `This room: ${formatSeconds(total)} = ${sum}`;
}

/**
 * The calibration helper's measurement for a room: the whole delay of this room's TV, less the
 * broadcast delay the companion already applies, on the 0.1 s grid.
 */
export function offsetFromMeasurement(measuredMs: number, baseMs: number): number {
  const offset = Math.round((measuredMs - baseMs) / ROOM_OFFSET_STEP_MS) * ROOM_OFFSET_STEP_MS;
  return offset || 0;
}

/** Seconds between Start and Mark to one decimal, for a room's calibration. */
export function measureTenths(startedAt: number, markedAt: number): number {
  return Math.max(0, Math.round((markedAt - startedAt) / ROOM_OFFSET_STEP_MS)) / 10;
}

/**
 * `preferences` with only this device's offset changed; every other field and offset is kept. Only
 * when the server's limit of offsets would be exceeded are the offsets of companions no longer
 * linked dropped, since they can never apply again.
 */
export function withRoomOffset(
  preferences: Preferences,
  deviceId: string,
  offsetMs: number,
  linkedDeviceIds: readonly string[],
): Preferences {
  const next: Record<string, number> = { ...preferences.delayOffsetsMs };
  delete next[deviceId];
  // Zero is the same as no offset; leaving it out keeps room under the limit.
  if (offsetMs !== 0) next[deviceId] = offsetMs;
  if (Object.keys(next).length > PREFERENCES_MAX_DEVICE_OFFSETS) {
    const linked = new Set([...linkedDeviceIds, deviceId]);
    for (const id of Object.keys(next)) if (!linked.has(id)) delete next[id];
  }
  return { ...preferences, delayOffsetsMs: next };
}
