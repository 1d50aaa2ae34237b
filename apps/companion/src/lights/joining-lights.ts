import { getSettledLook, isEffectFlag, type LookSet } from '@flaglight/core';
import type { LightDriver } from '@flaglight/lights';
import { css } from './look-css.js';

/** What the status page shows a light last sent: a colour name and a CSS colour. */
type ShownLook = { name: string; css: string };

/** One driver of the hub, as far as a light that joins mid-race needs it. */
export interface JoiningEntry {
  key: string;
  provider: string;
  driver: Pick<LightDriver, 'setState'>;
  /** The lights the flags drive now, with the new selection. */
  driven: readonly string[];
}

/** How quickly a light that joins fades into the flag's look (as SPEC §4's green comes on). */
const JOIN_TRANSITION_MS = 400;

/**
 * A light the fan ticks during a race (or that a choice synced from another browser adds) takes the
 * race's flag at once, settled as the look set says, instead of staying as it was until the next
 * flag. `before` holds each driver's driven ids before the selection changed. A flag the set leaves
 * alone, and the momentary fastest lap, settle on nothing: the light is left as it is.
 */
export function showFlagOnJoiningLights(
  entries: readonly JoiningEntry[],
  before: ReadonlyMap<string, readonly string[]>,
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
  for (const entry of entries) {
    const was = new Set(before.get(entry.key) ?? []);
    const joined = entry.driven.filter((id) => !was.has(id));
    if (joined.length === 0) continue;
    entry.driver
      .setState(joined, command)
      .then(() => {
        for (const id of joined) shown.set(`${entry.provider}:${id}`, swatch);
      })
      .catch((error: unknown) => warn(entry.key, error instanceof Error ? error.message : String(error)));
  }
}
