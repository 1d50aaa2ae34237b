import type { FusionInput } from '../flags/fusion.js';
import { readLiveTimingStreams } from '../flags/live-timing.js';
import { RaceControlInputSchema } from '../types/race-control.js';

export type ParseResult = { ok: true; messages: unknown[] } | { ok: false; error: string };

/** Reads the CLI's JSON text: an array of race-control records, or `{ "messages": [...] }`. */
export function parseRaceControlJson(text: string): ParseResult {
  const json = parseJson(text);
  if (!json.ok) return json;
  const data = json.data;
  const parsed = RaceControlInputSchema.safeParse(data);
  if (!parsed.success) {
    return {
      ok: false,
      error: 'expected a JSON array of race_control records or an object with a "messages" array',
    };
  }
  return { ok: true, messages: parsed.data };
}

function parseJson(text: string): { ok: true; data: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `invalid JSON: ${detail}` };
  }
}

export type LiveTimingParseResult = { ok: true; inputs: FusionInput[] } | { ok: false; error: string };

/** Reads a fixture file's `live_timing` streams (DESIGN §5.8) as fusion inputs in offset order. */
export function parseLiveTimingJson(text: string): LiveTimingParseResult {
  const json = parseJson(text);
  if (!json.ok) return json;
  const liveTiming =
    typeof json.data === 'object' && json.data !== null && !Array.isArray(json.data)
      ? (json.data as { live_timing?: unknown }).live_timing
      : undefined;
  const merged = readLiveTimingStreams(liveTiming);
  if (merged.ok) return merged;
  const hint = liveTiming === undefined ? ' (--source f1 reads a fixture file\'s "live_timing")' : '';
  return { ok: false, error: `${merged.error}${hint}` };
}
