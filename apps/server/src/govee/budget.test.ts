import { CALM, EFFECT_FLAGS, NIGHT_RACE, TRACKSIDE, type EffectFlag, type LookSet } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import {
  applyCapability,
  deriveBudgetMode,
  GOVEE_LEFT_NOTE,
  GOVEE_TRACK_WIDE_FLAGS,
  lookForFlag,
  nextCapability,
  planFlag,
  type GoveeKnownState,
  type GoveeLook,
} from './budget.js';

/** Calls one light needs to go from `known` to `want` (Govee takes one capability per call). */
function callsTo(known: GoveeKnownState, want: GoveeLook | null): number {
  let calls = 0;
  for (let next = nextCapability(known, want); next; next = nextCapability(known, want)) {
    applyCapability(known, next);
    calls += 1;
  }
  return calls;
}

// The 2021 Saudi Arabian GP (the demo race) as core derives it: `npm run -s flags --
// packages/data/race-control/2021-saudi-arabia-race.json`, 17:03 to 19:40 UTC.
const SAUDI_2021: EffectFlag[] = [
  'yellow',
  'green',
  'yellow',
  'green',
  'yellow',
  'red',
  'green',
  'yellow',
  'red',
  'green',
  'yellow',
  'vsc',
  'vsc_ending',
  'green',
  'vsc',
  'vsc_ending',
  'green',
  'vsc',
  'vsc_ending',
  'green',
  'vsc',
  'vsc_ending',
  'green',
  'checkered',
];

describe('Govee cloud budget', () => {
  test('each flag is one solid look: strobes their colour, chequered white at full brightness', () => {
    expect(lookForFlag('red')).toEqual({ on: true, rgb: 0xff0000, brightness: 50 });
    expect(lookForFlag('safety')).toEqual(lookForFlag('yellow'));
    expect(lookForFlag('vsc')).toEqual({ on: true, rgb: 0xff8000, brightness: 50 });
    expect(lookForFlag('checkered')).toEqual({ on: true, rgb: 0xffffff, brightness: 100 });
    expect(lookForFlag('fastest_lap')).toEqual({ on: true, rgb: 0xaa00ff, brightness: 100 });
    for (const flag of EFFECT_FLAGS) expect(planFlag(flag, 'normal').send).toBe(true);
  });

  test('the first flag costs 3 calls a light, a later change 1 (2 when brightness changes too)', () => {
    const known: GoveeKnownState = {};
    expect(callsTo(known, lookForFlag('green'))).toBe(3);
    expect(callsTo(known, lookForFlag('red'))).toBe(1);
    expect(callsTo(known, lookForFlag('safety'))).toBe(1);
    expect(callsTo(known, lookForFlag('yellow'))).toBe(0);
    expect(callsTo(known, lookForFlag('checkered'))).toBe(2);
  });

  test('a white is given back by its kelvin; a colour after a white is sent even if it was the colour before', () => {
    const known: GoveeKnownState = { on: true, kelvin: 2700, brightness: 60 };
    expect(nextCapability(known, { on: true, kelvin: 2700, brightness: 60 })).toBeNull();
    expect(nextCapability(known, { on: true, rgb: 0xff0000, brightness: 60 })).toMatchObject({
      instance: 'colorRgb',
      value: 0xff0000,
    });
    applyCapability(known, {
      type: 'devices.capabilities.color_setting',
      instance: 'colorRgb',
      value: 0xff0000,
    });
    expect(known).toEqual({ on: true, rgb: 0xff0000, brightness: 60 });
    // Both given (a saved state sent back with both): the white, once.
    expect(callsTo(known, { on: true, rgb: 0xff0000, kelvin: 2700, brightness: 60 })).toBe(1);
    expect(known).toEqual({ on: true, kelvin: 2700, brightness: 60 });
  });

  test('the demo race costs 23 calls per light: 230 for 10 lights over 2.6 hours', () => {
    const known: GoveeKnownState = {};
    const calls = SAUDI_2021.reduce((sum, flag) => sum + callsTo(known, lookForFlag(flag)), 0);
    expect(calls).toBe(23);
  });

  test('the budget degrades: colour only under 25 %, track-wide flags under 10 %, nothing at 0', () => {
    expect(deriveBudgetMode(10_000, 10_000)).toBe('normal');
    expect(deriveBudgetMode(2_400, 10_000)).toBe('saving');
    expect(deriveBudgetMode(900, 10_000)).toBe('track_only');
    expect(deriveBudgetMode(0, 10_000)).toBe('exhausted');
    expect(planFlag('red', 'saving').look).toEqual({ on: true, rgb: 0xff0000 });
    expect(planFlag('fastest_lap', 'saving').send).toBe(false);
    for (const flag of EFFECT_FLAGS)
      expect(planFlag(flag, 'track_only').send).toBe(GOVEE_TRACK_WIDE_FLAGS.includes(flag));
    expect(planFlag('green', 'exhausted')).toMatchObject({ send: false, look: null });
  });
});

describe("Govee cloud in the account's look set", () => {
  const blueRed: LookSet = {
    ...TRACKSIDE,
    flags: {
      ...TRACKSIDE.flags,
      red: {
        kind: 'show',
        color: { name: 'blue', hue: 240, saturation: 1 },
        brightness: 40,
        effect: { kind: 'steady' },
        effectMs: 1000,
        settleBrightness: 40,
      },
      fastest_lap: { kind: 'leave' },
    },
  };

  test('Trackside passed in plays what no look set plays, notes included', () => {
    for (const flag of EFFECT_FLAGS)
      expect(planFlag(flag, 'normal', TRACKSIDE)).toEqual(planFlag(flag, 'normal'));
    expect(planFlag('red', 'normal').note).toBe('solid red (Govee cloud cannot strobe)');
    expect(planFlag('fastest_lap', 'normal')).toMatchObject({
      restoreAfterMs: 3000,
      note: 'purple for 3 s, then back to the flag before',
    });
  });

  test('a chosen look is its settled colour and brightness; a left flag sends nothing', () => {
    expect(planFlag('red', 'normal', blueRed)).toMatchObject({
      send: true,
      look: { on: true, rgb: 0x0000ff, brightness: 40 },
      note: 'solid blue',
    });
    expect(planFlag('fastest_lap', 'normal', blueRed)).toEqual({
      send: false,
      look: null,
      restoreAfterMs: null,
      note: GOVEE_LEFT_NOTE,
    });
  });

  test('no look goes above the cap, the fastest lap included', () => {
    for (const looks of [CALM, NIGHT_RACE, { ...TRACKSIDE, brightnessCap: 20 }])
      for (const flag of EFFECT_FLAGS) {
        const look = lookForFlag(flag, looks);
        if (look?.brightness !== undefined) expect(look.brightness).toBeLessThanOrEqual(looks.brightnessCap);
      }
  });
});
