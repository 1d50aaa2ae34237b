import { describe, expect, test } from 'vitest';
import { fastestLap, otherMessage, safetyCar, sectorFlag, trackFlag } from '../../test/builders.js';
import { classifyMessage } from './classify.js';

describe('classifyMessage', () => {
  test.each([
    ['RED', 'red'],
    ['GREEN', 'green'],
    ['CLEAR', 'green'],
    ['CHEQUERED', 'checkered'],
  ])('track flag %s gives %s and clears every sector', (flag, state) => {
    expect(classifyMessage(trackFlag(flag, 0, `${flag} FLAG`))).toEqual({
      kind: 'track',
      state,
      clearsSectors: true,
    });
  });

  // Decision 025: every pit-lane notice in the 28 shared fixtures, whatever its category and scope.
  test.each([
    ['Flag', 'GREEN', 'Track', 'GREEN LIGHT - PIT EXIT OPEN', 'pit-exit-open'],
    ['PitExit', 'OPEN', 'Track', 'GREEN LIGHT - PIT EXIT OPEN', 'pit-exit-open'],
    ['Flag', 'CLEAR', 'Track', 'PIT EXIT OPEN', 'pit-exit-open'],
    ['Other', null, null, 'PIT EXIT CLOSED', 'none'],
    ['Flag', 'RED', 'Track', 'PIT EXIT CLOSED', 'none'],
    ['Other', null, null, 'PIT LANE ENTRY CLOSED', 'none'],
    ['Flag', 'GREEN', 'Track', 'PIT LANE ENTRY OPEN', 'none'],
    ['Other', null, null, 'PIT LANE ENTRY CLEAR', 'none'],
    ['Flag', 'CLEAR', 'Track', 'PIT ENTRY CLOSED', 'none'],
  ])(
    'a pit-lane notice (%s/%s/%s "%s") is never a track-wide flag',
    (category, flag, scope, message, kind) => {
      const record = { ...trackFlag('GREEN'), category, flag, scope, message };
      expect(classifyMessage(record)).toEqual({ kind });
    },
  );

  test('a safety car through the pit lane is still a safety car', () => {
    expect(classifyMessage(safetyCar('SAFETY CAR THROUGH THE PIT LANE'))).toEqual({
      kind: 'track',
      state: 'yellow',
      clearsSectors: false,
    });
  });

  test('a track flag with no light meaning does nothing', () => {
    expect(classifyMessage(trackFlag('BLUE'))).toEqual({ kind: 'none' });
  });

  test.each(['YELLOW', 'DOUBLE YELLOW'])('sector flag %s adds the sector', (flag) => {
    expect(classifyMessage(sectorFlag(flag, 7))).toEqual({ kind: 'sector-on', sector: 7 });
  });

  test.each(['CLEAR', 'GREEN'])('sector flag %s removes the sector', (flag) => {
    expect(classifyMessage(sectorFlag(flag, 7))).toEqual({ kind: 'sector-off', sector: 7 });
  });

  test('a sector flag without a usable sector number does nothing', () => {
    expect(classifyMessage({ ...sectorFlag('YELLOW', 1), sector: null })).toEqual({ kind: 'none' });
    expect(classifyMessage({ ...sectorFlag('YELLOW', 1), sector: 0 })).toEqual({ kind: 'none' });
    expect(classifyMessage({ ...sectorFlag('YELLOW', 1), sector: 2.5 })).toEqual({ kind: 'none' });
    expect(classifyMessage({ ...sectorFlag('YELLOW', 1), sector: '3' })).toEqual({ kind: 'none' });
  });

  test('a sector flag of another colour does nothing', () => {
    expect(classifyMessage(sectorFlag('BLUE', 4))).toEqual({ kind: 'none' });
  });

  test('driver flags (blue, black and white) do nothing', () => {
    expect(classifyMessage({ ...trackFlag('BLUE'), scope: 'Driver' })).toEqual({ kind: 'none' });
  });

  test.each([
    ['SAFETY CAR DEPLOYED', 'yellow'],
    ['SAFETY CAR IN THIS LAP', 'yellow'],
    ['SAFETY CAR THROUGH THE PIT LANE', 'yellow'],
    ['VIRTUAL SAFETY CAR DEPLOYED', 'vsc'],
    ['VSC DEPLOYED', 'vsc'],
    ['VIRTUAL SAFETY CAR ENDING', 'vsc_ending'],
    ['VSC ENDING', 'vsc_ending'],
  ])('category SafetyCar "%s" gives %s', (text, state) => {
    expect(classifyMessage(safetyCar(text))).toEqual({ kind: 'track', state, clearsSectors: false });
  });

  test('the category VirtualSafetyCar counts as SafetyCar', () => {
    expect(classifyMessage(safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 0, 'VirtualSafetyCar'))).toMatchObject({
      state: 'vsc',
    });
  });

  test('a stewards note that mentions the safety car does not change the flag', () => {
    expect(classifyMessage(otherMessage('SAFETY CAR WILL ENTER PITS: STANDING START'))).toEqual({
      kind: 'none',
    });
    expect(classifyMessage(otherMessage('NO OVERTAKING BEFORE THE SAFETY CAR LINE'))).toEqual({
      kind: 'none',
    });
  });

  test('a message beginning FASTEST LAP is a fastest lap whatever its category', () => {
    expect(classifyMessage(fastestLap())).toEqual({ kind: 'fastest-lap' });
    expect(classifyMessage(safetyCar('FASTEST LAP 1:30.000'))).toEqual({ kind: 'fastest-lap' });
  });

  test('matching ignores case and surrounding spaces', () => {
    expect(
      classifyMessage({ category: ' flag ', flag: 'red', scope: 'track', message: 'red flag' }),
    ).toMatchObject({
      state: 'red',
    });
  });

  test.each([null, undefined, 42, 'RED FLAG', [], {}, { category: 7, flag: {}, scope: [] }])(
    'a malformed record %j does nothing',
    (record) => {
      expect(classifyMessage(record)).toEqual({ kind: 'none' });
    },
  );
});
