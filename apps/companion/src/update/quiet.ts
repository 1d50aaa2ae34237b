// When an update may install: never while the companion follows a live session or a flag effect
// plays; paused lights are quiet whatever the race does (the fan chose to leave the room as it is).

/** An effect's longest program (a chequered flag's strobe, a fastest lap) fits well inside this. */
export const EFFECT_SETTLE_MS = 30_000;

export function isQuietMoment(input: {
  paused: boolean;
  /** The live session followed now, if any. */
  sessionKey: number | null;
  /** Flags waiting for their time. */
  pending: number;
  /** When the lights last changed (a flag, a test), ISO. */
  shownAt: string | null;
  now: number;
}): boolean {
  if (input.paused) return true;
  if (input.sessionKey !== null || input.pending > 0) return false;
  return input.shownAt === null || input.now - Date.parse(input.shownAt) >= EFFECT_SETTLE_MS;
}
