import { DEFAULT_LIGHT_FOLLOW, type LightFollowSettings } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { describeTargetSession, describeUnfollowedSession } from './followed-session';
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
