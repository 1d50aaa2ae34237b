import { describe, expect, test } from 'vitest';
import {
  DEFAULT_LIGHT_FOLLOW,
  FOLLOWED_SESSION_KINDS,
  getFollowedSessionKind,
  isSessionFollowed,
  type LightFollowSettings,
} from './follow.js';

describe('the kind of a session', () => {
  test.each([
    [{ session_name: 'Practice 1', session_type: 'Practice' }, 'practice'],
    [{ session_name: 'Practice 3', session_type: 'Practice' }, 'practice'],
    [{ session_name: 'Day 2', session_type: 'Practice' }, 'practice'],
    [{ session_name: 'Qualifying', session_type: 'Qualifying' }, 'qualifying'],
    [{ session_name: 'Sprint Qualifying', session_type: 'Qualifying' }, 'sprint_qualifying'],
    [{ session_name: 'Sprint Shootout', session_type: 'Qualifying' }, 'sprint_qualifying'],
    // OpenF1 and F1 live timing both call a sprint's type "Race": the name decides.
    [{ session_name: 'Sprint', session_type: 'Race' }, 'sprint'],
    [{ session_name: 'Race', session_type: 'Race' }, 'race'],
    [{ session_name: 'Abu Dhabi Grand Prix', session_type: null }, 'race'],
    [{ session_name: null, session_type: 'Race' }, 'race'],
    [{ session_name: 'Demo lap', session_type: null }, null],
    [{}, null],
  ] as const)('%o is %s', (session, kind) => {
    expect(getFollowedSessionKind(session)).toBe(kind);
  });
});

describe('which sessions drive the lights', () => {
  const onlyRace: LightFollowSettings = { ...DEFAULT_LIGHT_FOLLOW, sessions: ['race'] };

  test('by default every kind follows, as before fans could choose', () => {
    expect(DEFAULT_LIGHT_FOLLOW.sessions).toEqual([...FOLLOWED_SESSION_KINDS]);
    for (const session_name of ['Practice 2', 'Qualifying', 'Sprint Qualifying', 'Sprint', 'Race'])
      expect(isSessionFollowed(undefined, { session_name })).toBe(true);
  });

  test('with only Race on, a practice or a sprint drives nothing and the race does', () => {
    expect(isSessionFollowed(onlyRace, { session_name: 'Practice 1', session_type: 'Practice' })).toBe(false);
    expect(isSessionFollowed(onlyRace, { session_name: 'Sprint', session_type: 'Race' })).toBe(false);
    expect(isSessionFollowed(onlyRace, { session_name: 'Race', session_type: 'Race' })).toBe(true);
  });

  test('a session whose kind cannot be told still follows', () => {
    expect(isSessionFollowed({ ...onlyRace, sessions: [] }, { session_name: 'Demo lap' })).toBe(true);
  });
});
