// A light's own state, read before Flaglight first changes it in a session and put back when the
// session ends ("as it was"). Each brand reads and writes its own words (a LIFX HSBK and power, a
// Hue CLIP v2 light, a Nanoleaf state and selected effect, a Govee devStatus, a WLED /json/state
// with its preset, a Home Assistant entity's state and attributes): the saved state is that brand's
// JSON, kept as it was read, so the companion can keep it on disk and give it back after a restart.

/** One light's saved state: the brand's own JSON, or why it cannot be read (left as it is then). */
export type SavedLightState =
  { readable: true; on: boolean; state: Record<string, unknown> } | { readable: false; reason: string };

/** Saved states by light id. */
export type SavedStates = Record<string, SavedLightState>;

export interface RestoreReport {
  /** Lights sent their saved state. */
  restored: string[];
  /** Lights not sent it, with why (cannot be read, not found, not answering, a bad saved state). */
  left: { id: string; reason: string }[];
}

/** What a LAN driver that can give the room back offers beside `LightDriver`. */
export interface RoomStateDriver {
  /**
   * Reads each light's own state now (all lights for no ids). A light that does not answer is left
   * out (it is read again before its next change); one that can never be read says so.
   */
  readStates(ids: readonly string[]): Promise<SavedStates>;
  /**
   * Puts each saved state back: queued flashes and looks for those lights end first, and a light
   * that answers again later is not given the flag's look again. Resolves once the writes were sent.
   */
  restoreStates(saved: SavedStates): Promise<RestoreReport>;
}

/** Whether a driver can give the room back. */
export function hasRoomState<T extends object>(driver: T): driver is T & RoomStateDriver {
  return (
    typeof (driver as Partial<RoomStateDriver>).readStates === 'function' &&
    typeof (driver as Partial<RoomStateDriver>).restoreStates === 'function'
  );
}

/** Time a read of one light may take before it counts as not answering. */
export const ROOM_READ_TIMEOUT_MS = 1_500;

/** A number field of saved JSON, or null. */
export function savedNumber(state: Record<string, unknown>, key: string): number | null {
  const value = state[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Rejects after `ms` with a plain error naming `what` (a read that never answers). */
export function withReadTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Reads every id through `read` at once: a light whose read fails is left out (not answering now);
 * `read` returns null for an id it does not know.
 */
export async function readEach(
  ids: readonly string[],
  read: (id: string) => Promise<SavedLightState | null>,
): Promise<SavedStates> {
  const results = await Promise.allSettled(ids.map(async (id) => [id, await read(id)] as const));
  const saved: SavedStates = {};
  for (const result of results)
    if (result.status === 'fulfilled' && result.value[1]) saved[result.value[0]] = result.value[1];
  return saved;
}

/**
 * Restores every saved light through `restore` at once; unreadable ones and those `restore` throws
 * for are reported as left, with why.
 */
export async function restoreEach(
  saved: SavedStates,
  restore: (id: string, state: Record<string, unknown>, on: boolean) => Promise<void>,
): Promise<RestoreReport> {
  const report: RestoreReport = { restored: [], left: [] };
  await Promise.all(
    Object.entries(saved).map(async ([id, entry]) => {
      if (!entry.readable) return report.left.push({ id, reason: entry.reason });
      try {
        await restore(id, entry.state, entry.on);
        report.restored.push(id);
      } catch (error) {
        report.left.push({ id, reason: error instanceof Error ? error.message : String(error) });
      }
    }),
  );
  return report;
}
