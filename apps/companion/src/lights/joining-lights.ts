import { getSettledLook, isEffectFlag, type LookSet } from '@flaglight/core';
import type { LightDriver } from '@flaglight/lights';
import { css } from './look-css.js';

/** What the status page shows a light last sent: a colour name and a CSS colour. */
type ShownLook = { name: string; css: string };

/** Lights of one driver of the hub that the flags drive from now on (ticked, or a driver added). */
export interface JoiningEntry<D = Pick<LightDriver, 'setState'>> {
  key: string;
  provider: string;
  driver: D;
  /** The lights that joined. */
  driven: readonly string[];
}

/**
 * Reads lights before Flaglight first changes them (the room's snapshot, mid-session): a promise
 * while it reads, null when there is nothing to read (no session, or the lights read already).
 */
export type JoinRead<D> = (joined: readonly JoiningEntry<D>[]) => Promise<void> | null;

/** How quickly a light that joins fades into the flag's look (as SPEC §4's green comes on). */
const JOIN_TRANSITION_MS = 400;
/** The longest a light that joined waits for its read before the flags reach it anyway. */
export const JOIN_READ_WAIT_MS = 5_000;

/**
 * A light the fan ticks during a race (or that a choice synced from another browser adds) takes the
 * race's flag at once, settled as the look set says, instead of staying as it was until the next
 * flag. A flag the set leaves alone, and the momentary fastest lap, settle on nothing: the light is
 * left as it is.
 */
export function showFlagOnJoiningLights(
  joined: readonly JoiningEntry[],
  flag: string,
  looks: LookSet | undefined,
  shown: Map<string, ShownLook>,
  warn: (key: string, message: string) => void,
): void {
  const look = isEffectFlag(flag) ? getSettledLook(flag, looks) : null;
  if (!look) return;
  const swatch = { name: look.color.name, css: css(look.color, look.brightness) };
  const command = {
    on: true,
    color: look.color,
    brightness: look.brightness,
    transitionMs: JOIN_TRANSITION_MS,
  };
  for (const entry of joined) {
    if (entry.driven.length === 0) continue;
    const ids = [...entry.driven];
    entry.driver
      .setState(ids, command)
      .then(() => {
        for (const id of ids) shown.set(`${entry.provider}:${id}`, swatch);
      })
      .catch((error: unknown) => warn(entry.key, error instanceof Error ? error.message : String(error)));
  }
}

/** Each entry's lights driven now that were not before (`before`: driven ids by entry key). */
export function joiningLights<E extends { key: string; driven: readonly string[] }>(
  now: readonly E[],
  before: ReadonlyMap<string, readonly string[]>,
): E[] {
  return now.flatMap((entry) => {
    const was = new Set(before.get(entry.key) ?? []);
    const driven = entry.driven.filter((id) => !was.has(id));
    return driven.length > 0 ? [{ ...entry, driven }] : [];
  });
}

/**
 * Lights that join the flags mid-session are held out of every flag until the room has read them
 * (at most JOIN_READ_WAIT_MS), so "as it was" can give them back too; then they take the flag.
 */
export function createLightJoins<D>() {
  let read: JoinRead<D> | null = null;
  const held = new Map<string, Map<string, number>>();
  const hold = (joined: readonly JoiningEntry<D>[], by: number) => {
    for (const entry of joined) {
      const ids = held.get(entry.key) ?? new Map<string, number>();
      for (const id of entry.driven) ids.set(id, by);
      held.set(entry.key, ids);
    }
  };
  const release = (joined: readonly JoiningEntry<D>[], by: number) => {
    for (const entry of joined) {
      const ids = held.get(entry.key);
      for (const id of entry.driven) if (ids?.get(id) === by) ids.delete(id);
      if (ids?.size === 0) held.delete(entry.key);
    }
  };
  let reads = 0;
  return {
    setRead(next: JoinRead<D> | null) {
      read = next;
    },
    /** The ids of an entry the flags may change now: those being read are left out. */
    ready(key: string, ids: readonly string[]): string[] {
      const mine = held.get(key);
      return mine ? ids.filter((id) => !mine.has(id)) : [...ids];
    },
    /** Lights that joined: read first when the room wants them, then `show` (at once when not). */
    join(joined: readonly JoiningEntry<D>[], show: () => void): void {
      const reading = joined.length > 0 && read ? read(joined) : null;
      if (!reading) {
        show();
        return;
      }
      const by = ++reads;
      hold(joined, by);
      let timer: NodeJS.Timeout | null = null;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, JOIN_READ_WAIT_MS);
        timer.unref();
      });
      void Promise.race([reading.catch(() => undefined), waited]).then(() => {
        if (timer) clearTimeout(timer);
        release(joined, by);
        show();
      });
    },
  };
}
