import {
  DEFAULT_PREFERENCES,
  describeLookIssue,
  exportLooksFile,
  LOOKS_FILE_MAX_CHARS,
  LOOKS_FILE_MESSAGES,
  LookSetSchema,
  parseLooksFile,
  PreferencesSchema,
} from '@flaglight/contract';
import { CALM, LOOK_PRESETS, TRACKSIDE, type LookSet } from '@flaglight/core';
import { describe, expect, test } from 'vitest';

const REMOVED = Symbol('removed');
type Edit = [path: string, value: unknown];

/** Trackside as plain JSON with fields set (or REMOVED) by path: what a client or a hand-edited file might send. */
function edited(...edits: Edit[]): unknown {
  const looks = structuredClone(TRACKSIDE) as unknown as Record<string, unknown>;
  for (const [path, value] of edits) {
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    const parent = keys.reduce((node, key) => node[key] as Record<string, unknown>, looks);
    if (value === REMOVED) delete parent[last];
    else parent[last] = value;
  }
  return looks;
}

function firstError(input: unknown): string {
  const parsed = LookSetSchema.safeParse(input);
  if (parsed.success) return 'valid';
  return describeLookIssue(parsed.error.issues[0]!, 'looks');
}

describe('the look set schema: a 400 names the field and what is wrong', () => {
  test.each<[string, Edit, string]>([
    ['a hue past 360', ['flags.red.color.hue', 400], 'looks.flags.red.color.hue: must be 0 to 360'],
    [
      'a saturation past 1',
      ['flags.green.color.saturation', 2],
      'looks.flags.green.color.saturation: must be 0 to 1',
    ],
    [
      'a colour with a field it does not have',
      ['flags.red.color.kelvin', 2700],
      'looks.flags.red.color: unknown field "kelvin"',
    ],
    [
      'an unknown effect',
      ['flags.yellow.effect', { kind: 'sparkle' }],
      'looks.flags.yellow.effect.kind: unknown effect "sparkle" (known: steady, pulse, strobe, breathe)',
    ],
    [
      'an effect without a kind',
      ['flags.yellow.effect', {}],
      'looks.flags.yellow.effect.kind: is required (one of: steady, pulse, strobe, breathe)',
    ],
    [
      'eleven pulses',
      ['flags.red.effect', { kind: 'pulse', count: 11 }],
      'looks.flags.red.effect.count: must be a whole number from 1 to 10',
    ],
    [
      'an effect longer than the hold',
      ['flags.red.effectMs', 30_001],
      "looks.flags.red.effectMs: must be at most 30000 ms (the longest red's effect may run before its look settles)",
    ],
    [
      'a fastest lap longer than its hold',
      ['flags.fastest_lap.effectMs', 12_000],
      "looks.flags.fastest_lap.effectMs: must be at most 10000 ms (the longest fastest_lap's effect may run before its look settles)",
    ],
    [
      'an effect too short for its strobe',
      ['flags.checkered.effectMs', 2000],
      'looks.flags.checkered.effectMs: must be at least 3000 ms for the strobe',
    ],
    [
      'an effect too short for its pulses',
      ['flags.red', { ...TRACKSIDE.flags.red, effect: { kind: 'pulse', count: 3 }, effectMs: 200 }],
      'looks.flags.red.effectMs: must be at least 300 ms for 3 pulses',
    ],
    [
      'a fractional effect time',
      ['flags.green.effectMs', 2.5],
      'looks.flags.green.effectMs: must be a whole number of milliseconds',
    ],
    [
      'an unknown flag',
      ['flags.blue', { kind: 'leave' }],
      'looks.flags: unknown flag "blue" (known: green, red, yellow, checkered, safety, vsc, vsc_ending, fastest_lap)',
    ],
    ['a missing flag', ['flags.safety', REMOVED], 'looks.flags.safety: is required'],
    [
      'a look of another kind',
      ['flags.vsc', { kind: 'off' }],
      'looks.flags.vsc.kind: must be "show" (a look) or "leave" (leave the lights as they are)',
    ],
    [
      'a brightness of 0',
      ['flags.vsc.brightness', 0],
      'looks.flags.vsc.brightness: must be a whole percent from 1 to 100',
    ],
    ['a cap above 100', ['brightnessCap', 120], 'looks.brightnessCap: must be a whole percent from 1 to 100'],
    ['no noFlashing', ['noFlashing', REMOVED], 'looks.noFlashing: is required'],
    ['a setting the set does not have', ['theme', 'dark'], 'looks: unknown field "theme"'],
  ])('%s', (_name, edit, message) => {
    expect(firstError(edited(edit))).toBe(message);
  });

  test('anything but an object is refused as one', () => {
    expect(firstError(null)).toBe('looks: must be an object');
    expect(firstError(edited(['flags.red', 'red']))).toBe('looks.flags.red: must be an object');
  });

  test.each(LOOK_PRESETS)('the $name preset is a valid look set', ({ looks }) => {
    expect(LookSetSchema.parse(looks)).toEqual(looks);
  });
});

describe('looks in the preferences document', () => {
  test('absent is valid and stays absent: the account plays Trackside', () => {
    const parsed = PreferencesSchema.parse(DEFAULT_PREFERENCES);
    expect(parsed).not.toHaveProperty('looks');
  });

  test('a look set is kept as sent, and a wrong one is named from the document', () => {
    expect(PreferencesSchema.parse({ ...DEFAULT_PREFERENCES, looks: CALM }).looks).toEqual(CALM);
    const wrong = PreferencesSchema.safeParse({
      ...DEFAULT_PREFERENCES,
      looks: edited(['flags.red.color.hue', -1]),
    });
    expect(wrong.success || describeLookIssue(wrong.error.issues[0]!)).toBe(
      'looks.flags.red.color.hue: must be 0 to 360',
    );
  });
});

describe('looks files', () => {
  test.each(LOOK_PRESETS)('$name survives export then import unchanged', ({ name, looks }) => {
    const text = exportLooksFile(name, looks);
    expect(JSON.parse(text)).toMatchObject({ flaglight: 'looks', version: 1, name });
    expect(parseLooksFile(text)).toEqual({ ok: true, name, looks });
  });

  test('a file whose looks are wrong names the field, from the file', () => {
    const looks = edited(['flags.red.color.hue', 400]) as LookSet;
    expect(parseLooksFile(exportLooksFile('Mine', looks))).toEqual({
      ok: false,
      error: 'looks.flags.red.color.hue: must be 0 to 360',
    });
  });

  test.each([
    ['text that is not JSON', 'flags: red', LOOKS_FILE_MESSAGES.notJson],
    ['JSON that is not an object', '[1, 2]', LOOKS_FILE_MESSAGES.notLooks],
    ['null', 'null', LOOKS_FILE_MESSAGES.notLooks],
    [
      'another kind of Flaglight file',
      '{"flaglight":"preferences","version":1}',
      LOOKS_FILE_MESSAGES.notLooks,
    ],
    ['a file with no kind', '{"version":1,"name":"x","looks":{}}', LOOKS_FILE_MESSAGES.notLooks],
    ['a newer version', '{"flaglight":"looks","version":2}', LOOKS_FILE_MESSAGES.newerVersion(2)],
    ['no version', '{"flaglight":"looks"}', LOOKS_FILE_MESSAGES.unknownVersion],
    ['a version as text', '{"flaglight":"looks","version":"1"}', LOOKS_FILE_MESSAGES.unknownVersion],
    ['a huge file', ' '.repeat(LOOKS_FILE_MAX_CHARS + 1), LOOKS_FILE_MESSAGES.tooLarge],
  ])('%s is refused with a clear error', (_name, text, error) => {
    expect(parseLooksFile(text)).toEqual({ ok: false, error });
  });

  test('a file without a name, or with a field it does not have, says which', () => {
    const file = JSON.parse(exportLooksFile('Mine', TRACKSIDE)) as Record<string, unknown>;
    expect(parseLooksFile(JSON.stringify({ ...file, name: '  ' }))).toEqual({
      ok: false,
      error: 'name: name is required',
    });
    expect(parseLooksFile(JSON.stringify({ ...file, author: 'me' }))).toEqual({
      ok: false,
      error: 'unknown field "author"',
    });
  });

  test('a name is trimmed of the white space around it', () => {
    expect(parseLooksFile(exportLooksFile('  Sunday night \n', CALM))).toMatchObject({
      ok: true,
      name: 'Sunday night',
    });
  });
});
