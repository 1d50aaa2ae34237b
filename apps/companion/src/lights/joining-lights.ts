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
}

/** How quickly a light that joins fades into the flag's look (as SPEC §4's green comes on). */
const JOIN_TRANSITION_MS = 400;

/**
 * A light the fan ticks during a race (or that a choice synced from another browser adds) takes the
 * race's flag at once, settled as the look set says, instead of staying as it was until the next
 * flag. `before` holds each driver's driven ids before the selection changed. A flag the set leaves
 * alone, and the momentary fastest lap, settle on nothing: the light is left as it is.
 */
export function showFlagOnJoiningLights(options: {
  entries: Iterable<JoiningEntry>;
  before: ReadonlyMap<string, readonly string[]>;
  drivenNow: (entry: JoiningEntry) => readonly string[];
  flag: string;
  looks: LookSet | undefined;
  shown: Map<string, ShownLook>;
  warn: (key: string, message: string) => void;
}): void {
  const { flag, looks } = options;
  const look = isEffectFlag(flag) ? getSettledLook(flag, looks) : null;
  if (!look) return;
  for (const entry of options.entries) {
    const was = new Set(options.before.get(entry.key) ?? []);
    const joined = options.drivenNow(entry).filter((id) => !was.has(id));
    if (joined.length === 0) continue;
    const command = {
      on: true,
      color: look.color,
      brightness: look.brightness,
      transitionMs: JOIN_TRANSITION_MS,
    };
    entry.driver
      .setState(joined, command)
      .then(() => {
        for (const id of joined)
          options.shown.set(`${entry.provider}:${id}`, {
            name: look.color.name,
            css: css(look.color, look.brightness),
          });
      })
      .catch((error: unknown) =>
        options.warn(entry.key, error instanceof Error ? error.message : String(error)),
      );
  }
}
