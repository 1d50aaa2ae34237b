import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLAG_LOOK_HOLD_MS, LOOK_PRESETS, type FlagLook, type LookSet } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { FLAG_NAMES, FLAG_ORDER } from './looks-texts';

// docs/flags-and-effects.md describes each preset in a table: held here to core's presets, so the
// page cannot drift from what the lights play.
const page = readFileSync(
  join(import.meta.dirname, '..', '..', '..', '..', '..', 'docs', 'flags-and-effects.md'),
  'utf8',
);

const seconds = (ms: number) => `${ms / 1000} s`;

function effectWords(look: Extract<FlagLook, { kind: 'show' }>): string {
  if (look.effect.kind !== 'pulse') return look.effect.kind;
  return `${look.effect.count} pulse${look.effect.count === 1 ? '' : 's'}`;
}

/** A table row's cells as the page writes them (padding aside). */
function row(flag: (typeof FLAG_ORDER)[number], looks: LookSet): string[] {
  const look = looks.flags[flag];
  if (look.kind === 'leave') return [FLAG_NAMES[flag], 'leave', '–', '–', '–', '–'];
  return [
    FLAG_NAMES[flag],
    look.color.name,
    `${look.brightness} %`,
    effectWords(look),
    seconds(look.effectMs),
    flag === 'fastest_lap' ? '–' : `${look.settleBrightness} %`,
  ];
}

/** The rows of the table under a preset's heading. */
function tableUnder(heading: string): string[][] {
  const start = page.indexOf(`### ${heading}`);
  expect(start, `a "### ${heading}" heading`).toBeGreaterThanOrEqual(0);
  const next = page.indexOf('\n#', start + 4);
  return page
    .slice(start, next === -1 ? undefined : next)
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Flag') && !line.startsWith('| ---'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('docs/flags-and-effects.md', () => {
  test.each(LOOK_PRESETS.map((preset) => [preset.name, preset] as const))(
    "the %s table is the preset's looks, flag by flag",
    (name, preset) => {
      const heading = preset.id === 'trackside' ? 'Trackside (the default)' : name;
      expect(tableUnder(heading)).toEqual(FLAG_ORDER.map((flag) => row(flag, preset.looks)));
      expect(page).toContain(`images/flags-and-effects/${preset.id}.png`);
      expect(page).toContain(`cap ${preset.looks.brightnessCap} %`);
    },
  );

  test('the holds it names are core’s', () => {
    expect(page).toContain(
      `at most ${seconds(FLAG_LOOK_HOLD_MS.red)} (${seconds(FLAG_LOOK_HOLD_MS.fastest_lap)} for a fastest lap)`,
    );
  });
});
