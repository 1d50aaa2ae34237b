import { RaceControlInputSchema } from '../types/race-control.js';

export type ParseResult = { ok: true; messages: unknown[] } | { ok: false; error: string };

/** Reads the CLI's JSON text: an array of race-control records, or `{ "messages": [...] }`. */
export function parseRaceControlJson(text: string): ParseResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `invalid JSON: ${detail}` };
  }
  const parsed = RaceControlInputSchema.safeParse(data);
  if (!parsed.success) {
    return {
      ok: false,
      error: 'expected a JSON array of race_control records or an object with a "messages" array',
    };
  }
  return { ok: true, messages: parsed.data };
}
