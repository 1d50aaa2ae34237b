import { DEFAULT_LIGHT_FOLLOW, type LightFollowSettings } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import {
  describeTargetKey,
  describeTargetSession,
  describeUnfollowedSession,
  isKeptSessionOver,
} from './followed-session';
import type { CurrentSession } from './live-api';
import type { LiveTarget } from './live-connection-state';

const replay = (sessionName?: string): LiveTarget => ({
  kind: 'replay',
  sessionKey: 1,
  title: 'x',
  speed: 10,
  startMinutes: 0,
  ...(sessionName ? { sessionName } : {}),
});
const onlyRace: LightFollowSettings = { ...DEFAULT_LIGHT_FOLLOW, sessions: ['race'] };

describe('which followed sessions drive the lights', () => {
  test('a replay is described by its session name, a live session by its name and type', () => {
    expect(describeTargetSession(replay('Practice 2'))).toEqual({ session_name: 'Practice 2' });
    expect(describeTargetSession(replay())).toBeNull();
    expect(describeTargetSession({ kind: 'live', session: null })).toBeNull();
  });

  test('with only Race on, a practice replay is named as not followed and a race is followed', () => {
    expect(describeUnfollowedSession(replay('Practice 2'), onlyRace)).toBe('practice sessions');
    expect(describeUnfollowedSession(replay('Sprint'), onlyRace)).toBe('sprints');
    expect(describeUnfollowedSession(replay('Race'), onlyRace)).toBeNull();
  });

  test('by default every session is followed, and a session that says nothing is too', () => {
    expect(describeUnfollowedSession(replay('Practice 2'), undefined)).toBeNull();
    expect(describeUnfollowedSession(replay(), onlyRace)).toBeNull();
    expect(describeUnfollowedSession(null, onlyRace)).toBeNull();
  });
});

describe('a snapshot an earlier page kept', () => {
  const race = {
    name: 'Race',
    date_start: '2026-03-08T04:00:00Z',
    date_end: '2026-03-08T06:00:00Z',
    type: 'Race',
    race_name: 'Australian Grand Prix',
    circuit_name: 'Melbourne',
  };
  const key = describeTargetKey({ kind: 'live', session: race });

  test('a replay or a test is over at once; a live session once it is no longer the live one', async () => {
    let asked = 0;
    const current = (answer: CurrentSession) => () => {
      asked += 1;
      return Promise.resolve(answer);
    };
    expect(await isKeptSessionOver('replay:9877', current({ kind: 'none' }))).toBe(true);
    expect(await isKeptSessionOver('test', current({ kind: 'none' }))).toBe(true);
    expect(asked).toBe(0);
    expect(await isKeptSessionOver(key, current({ kind: 'live', session: race }))).toBe(false);
    expect(
      await isKeptSessionOver(key, current({ kind: 'live', session: { ...race, name: 'Sprint' } })),
    ).toBe(true);
    expect(await isKeptSessionOver(key, current({ kind: 'none' }))).toBe(true);
  });
});
