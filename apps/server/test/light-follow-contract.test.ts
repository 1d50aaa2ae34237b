import {
  DEFAULT_PREFERENCES,
  describeLookIssue,
  LightFollowSchema,
  PreferencesSchema,
} from '@flaglight/contract';
import { DEFAULT_LIGHT_FOLLOW, type LightFollowSettings } from '@flaglight/core';
import { describe, expect, test } from 'vitest';

function firstError(input: unknown): string {
  const parsed = LightFollowSchema.safeParse(input);
  if (parsed.success) return 'valid';
  return describeLookIssue(parsed.error.issues[0]!, 'lightFollow');
}

const only = (edit: Partial<LightFollowSettings> | Record<string, unknown>) => ({
  ...DEFAULT_LIGHT_FOLLOW,
  ...edit,
});

describe('the follow settings schema: a 400 names the field and what is wrong', () => {
  test.each<[string, unknown, string]>([
    [
      'an unknown session kind',
      only({ sessions: ['race', 'karting'] }),
      'lightFollow.sessions.1: unknown session kind "karting" (known: practice, qualifying, sprint_qualifying, sprint, race)',
    ],
    [
      'a kind named twice',
      only({ sessions: ['race', 'race'] }),
      'lightFollow.sessions: names a session kind twice',
    ],
    [
      'sessions not a list',
      only({ sessions: 'race' }),
      'lightFollow.sessions: must be a list of session kinds',
    ],
    [
      'an after-green action it does not know',
      only({ afterGreen: { action: 'blink', afterSeconds: 60 } }),
      'lightFollow.afterGreen.action: must be one of: keep, dim, give-back',
    ],
    [
      'a hold under 5 s',
      only({ afterGreen: { action: 'dim', afterSeconds: 2 } }),
      'lightFollow.afterGreen.afterSeconds: must be a whole number of seconds from 5 to 3600',
    ],
    [
      'a hold of part of a second',
      only({ afterGreen: { action: 'dim', afterSeconds: 30.5 } }),
      'lightFollow.afterGreen.afterSeconds: must be a whole number of seconds from 5 to 3600',
    ],
    [
      'a session end it does not know',
      only({ sessionEnd: 'party' }),
      'lightFollow.sessionEnd: must be one of: as-it-was, off, leave',
    ],
    ['a field it does not have', only({ brightness: 5 }), 'lightFollow: unknown field "brightness"'],
    [
      'a missing field',
      { sessions: [], afterGreen: DEFAULT_LIGHT_FOLLOW.afterGreen },
      'lightFollow.sessionEnd: is required',
    ],
  ])('%s', (_name, input, message) => {
    expect(firstError(input)).toBe(message);
  });

  test('no session at all is a valid choice, and every field at its edge is kept', () => {
    const edge: LightFollowSettings = {
      sessions: [],
      afterGreen: { action: 'give-back', afterSeconds: 3600 },
      sessionEnd: 'as-it-was',
    };
    expect(LightFollowSchema.parse(edge)).toEqual(edge);
    expect(LightFollowSchema.parse(DEFAULT_LIGHT_FOLLOW)).toEqual(DEFAULT_LIGHT_FOLLOW);
  });
});

describe('follow settings in the preferences document', () => {
  test('absent is valid and stays absent: the account follows as before', () => {
    expect(PreferencesSchema.parse(DEFAULT_PREFERENCES)).not.toHaveProperty('lightFollow');
  });

  test('kept as sent beside the looks, and a wrong one is named from the document', () => {
    const lightFollow: LightFollowSettings = {
      sessions: ['race'],
      afterGreen: { action: 'dim', afterSeconds: 30 },
      sessionEnd: 'off',
    };
    expect(PreferencesSchema.parse({ ...DEFAULT_PREFERENCES, lightFollow }).lightFollow).toEqual(lightFollow);
    const wrong = PreferencesSchema.safeParse({
      ...DEFAULT_PREFERENCES,
      lightFollow: { ...lightFollow, sessionEnd: 'party' },
    });
    expect(wrong.success || describeLookIssue(wrong.error.issues[0]!)).toBe(
      'lightFollow.sessionEnd: must be one of: as-it-was, off, leave',
    );
  });
});
