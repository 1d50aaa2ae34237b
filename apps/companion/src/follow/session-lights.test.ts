import {
  DEFAULT_LIGHT_FOLLOW,
  TRACKSIDE,
  type LightFollowSettings,
  type LookSet,
  type SessionDescription,
} from '@flaglight/core';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { LightsHub } from '../lights/lights-hub.js';
import { createLogger } from '../system/log.js';
import { createSessionLights, type SessionLightHooks } from './session-lights.js';

const PRACTICE: SessionDescription = { session_name: 'Practice 2', session_type: 'Practice' };
const RACE: SessionDescription = { session_name: 'Race', session_type: 'Race' };

function setup(options: { follow?: Partial<LightFollowSettings>; session?: SessionDescription | null } = {}) {
  const shown: Parameters<LightsHub['showLook']>[] = [];
  let follow: LightFollowSettings = { ...DEFAULT_LIGHT_FOLLOW, ...options.follow };
  let looks: LookSet | undefined;
  let session: SessionDescription | null | Error = options.session ?? RACE;
  let asked = 0;
  const sessions = createSessionLights({
    describe: async () => {
      asked += 1;
      if (session instanceof Error) throw session;
      return session;
    },
    follow: () => follow,
    looks: () => looks,
    hub: { showLook: (...args) => void shown.push(args) },
    log: createLogger({ console: false }),
  });
  return {
    sessions,
    shown,
    asked: () => asked,
    setFollow: (next: Partial<LightFollowSettings>) => (follow = { ...follow, ...next }),
    setLooks: (next: LookSet | undefined) => (looks = next),
    setSession: (next: SessionDescription | null | Error) => (session = next),
  };
}

describe('the session filter', () => {
  test('with only Race on, a practice is not admitted and a race is; each kind is asked once', async () => {
    const practice = setup({ follow: { sessions: ['race'] }, session: PRACTICE });
    expect(await practice.sessions.admit(11)).toBe(false);
    expect(await practice.sessions.admit(11)).toBe(false);
    expect(practice.asked()).toBe(1);
    const race = setup({ follow: { sessions: ['race'] }, session: RACE });
    expect(await race.sessions.admit(12)).toBe(true);
  });

  test('turning practice on mid-session lets its next flag through', async () => {
    const { sessions, setFollow } = setup({ follow: { sessions: ['race'] }, session: PRACTICE });
    expect(await sessions.admit(11)).toBe(false);
    setFollow({ sessions: ['practice', 'race'] });
    expect(await sessions.admit(11)).toBe(true);
  });

  test('the status page says in one line why a followed session leaves the lights alone', async () => {
    const { sessions } = setup({ follow: { sessions: ['race', 'sprint'] }, session: PRACTICE });
    sessions.followerStatus({ state: 'following', sessionKey: 11 });
    await sessions.admit(11);
    expect(sessions.view()).toEqual({
      sessionKey: 11,
      kind: 'practice',
      followed: false,
      line: 'This practice session leaves your lights alone: the account follows only sprints and races (Settings → Flags & effects).',
    });
  });

  test('a session the server cannot describe (an outage) is taken as the one last seen', async () => {
    const { sessions, setSession } = setup({ follow: { sessions: ['race'] }, session: PRACTICE });
    expect(await sessions.admit(11)).toBe(false);
    setSession(new Error('Cannot reach the server'));
    // The F1 live-timing fallback's own key for the same practice.
    expect(await sessions.admit(99)).toBe(false);
  });

  test('no live session described and none seen before: the flags follow (an unknown kind drives the lights)', async () => {
    const { sessions } = setup({ follow: { sessions: ['race'] }, session: null });
    expect(await sessions.admit(5)).toBe(true);
  });
});

describe('the moments of a session', () => {
  test('beforeFirstChange runs once per session, and the first flag waits for it', async () => {
    const { sessions } = setup();
    const order: string[] = [];
    const hooks: SessionLightHooks = {
      beforeFirstChange: async (key) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        order.push(`snapshot ${key}`);
      },
    };
    sessions.setHooks(hooks);
    await sessions.admit(7);
    order.push('played');
    await sessions.admit(7);
    await sessions.admit(8);
    expect(order).toEqual(['snapshot 7', 'played', 'snapshot 8']);
  });

  test('a session left alone by the filter takes no snapshot', async () => {
    const { sessions } = setup({ follow: { sessions: ['race'] }, session: PRACTICE });
    const before = vi.fn();
    sessions.setHooks({ beforeFirstChange: before });
    await sessions.admit(7);
    expect(before).not.toHaveBeenCalled();
  });

  test("the end of a session whose lights changed is told with the fan's choice; another session's start ends it too", async () => {
    const { sessions } = setup({ follow: { sessionEnd: 'as-it-was' } });
    const ended = vi.fn();
    sessions.setHooks({ sessionEnded: ended });
    sessions.followerStatus({ state: 'following', sessionKey: 7 });
    await sessions.admit(7);
    sessions.followerStatus({ state: 'reconnecting', sessionKey: 7 });
    expect(ended).not.toHaveBeenCalled();
    sessions.followerStatus({ state: 'waiting', sessionKey: null });
    expect(ended).toHaveBeenCalledWith(7, 'as-it-was');
    sessions.followerStatus({ state: 'following', sessionKey: 8 });
    await sessions.admit(8);
    sessions.followerStatus({ state: 'following', sessionKey: 9 });
    expect(ended).toHaveBeenLastCalledWith(8, 'as-it-was');
    expect(ended).toHaveBeenCalledTimes(2);
  });

  test('a test during a live followed session waits for beforeFirstChange, which runs once for the test and the flags', async () => {
    const { sessions } = setup();
    const before = vi.fn(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));
    sessions.setHooks({ beforeFirstChange: before });
    expect(sessions.beforeTest()).toBeNull();
    sessions.followerStatus({ state: 'following', sessionKey: 7 });
    const reading = sessions.beforeTest();
    expect(reading).not.toBeNull();
    expect(await sessions.admit(7)).toBe(true);
    await reading;
    expect(before).toHaveBeenCalledTimes(1);
    expect(sessions.beforeTest()).toBeNull();
  });

  test('a session whose end was carried out admits and plays no flag; a kind turned off plays none either', async () => {
    const { sessions, setFollow } = setup();
    expect(await sessions.admit(7)).toBe(true);
    expect(sessions.mayPlay(7)).toBe(true);
    sessions.sessionOver(7);
    expect(sessions.mayPlay(7)).toBe(false);
    expect(await sessions.admit(7)).toBe(false);
    expect(await sessions.admit(8)).toBe(true);
    setFollow({ sessions: ['practice'] });
    expect(sessions.mayPlay(8)).toBe(false);
  });

  test('a session the server stopped naming live (a restart, an outage) plays again when it is followed again; one over by its own end does not', async () => {
    const { sessions } = setup({ follow: { sessionEnd: 'as-it-was' } });
    const before = vi.fn();
    const ended = vi.fn((key: number) => sessions.sessionOver(key));
    sessions.setHooks({ beforeFirstChange: before, sessionEnded: ended });
    sessions.followerStatus({ state: 'following', sessionKey: 7 });
    expect(await sessions.admit(7)).toBe(true);
    // The server restarts mid-race: no live session for a moment, or another (a demo's loop) first.
    sessions.followerStatus({ state: 'waiting', sessionKey: null });
    sessions.followerStatus({ state: 'following', sessionKey: 5 });
    expect(ended).toHaveBeenCalledWith(7, 'as-it-was');
    expect(sessions.mayPlay(7)).toBe(false);
    sessions.followerStatus({ state: 'following', sessionKey: 7 });
    expect(sessions.mayPlay(7)).toBe(true);
    expect(await sessions.admit(7)).toBe(true);
    // Its room is read again before that flag.
    expect(before).toHaveBeenCalledTimes(2);
    // Its own end (the chequered flag's give-back) is final: following it again changes nothing.
    sessions.sessionOver(7);
    sessions.followerStatus({ state: 'waiting', sessionKey: null });
    sessions.followerStatus({ state: 'following', sessionKey: 7 });
    expect(sessions.mayPlay(7)).toBe(false);
    expect(await sessions.admit(7)).toBe(false);
  });

  test('a session that never changed a light ends without a word (unlinked is no end either)', async () => {
    const { sessions } = setup();
    const ended = vi.fn();
    sessions.setHooks({ sessionEnded: ended });
    sessions.followerStatus({ state: 'following', sessionKey: 7 });
    sessions.followerStatus({ state: 'unlinked', sessionKey: null });
    sessions.followerStatus({ state: 'waiting', sessionKey: null });
    expect(ended).not.toHaveBeenCalled();
  });
});

describe('when green has held', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('dim: after afterSeconds the green fades down to 10 % (its own colour)', () => {
    const { sessions, shown } = setup({ follow: { afterGreen: { action: 'dim', afterSeconds: 30 } } });
    sessions.played('green', 7);
    // A fastest lap is momentary: the green goes on holding through it.
    vi.advanceTimersByTime(10_000);
    sessions.played('fastest_lap', 7);
    vi.advanceTimersByTime(19_000);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(shown).toEqual([[{ color: expect.objectContaining({ name: 'green' }), brightness: 0.1 }, 2000]]);
  });

  test('a flag before the time cancels it; keep never dims', () => {
    const dim = setup({ follow: { afterGreen: { action: 'dim', afterSeconds: 30 } } });
    dim.sessions.played('green', 7);
    vi.advanceTimersByTime(20_000);
    dim.sessions.played('yellow', 7);
    vi.advanceTimersByTime(60_000);
    expect(dim.shown).toEqual([]);
    const keep = setup();
    keep.sessions.played('green', 7);
    vi.advanceTimersByTime(3_600_000);
    expect(keep.shown).toEqual([]);
  });

  test('a green the fan leaves alone is not dimmed; a capped green is dimmed no brighter than it was', () => {
    const { sessions, shown, setLooks } = setup({
      follow: { afterGreen: { action: 'dim', afterSeconds: 5 } },
    });
    setLooks({ ...TRACKSIDE, flags: { ...TRACKSIDE.flags, green: { kind: 'leave' } } });
    sessions.played('green', 7);
    vi.advanceTimersByTime(10_000);
    expect(shown).toEqual([]);
    setLooks({ ...TRACKSIDE, brightnessCap: 5 });
    sessions.played('green', 7);
    vi.advanceTimersByTime(10_000);
    expect(shown[0]![0].brightness).toBe(0.05);
  });

  test('give back: the restore hook is called for the session', () => {
    const { sessions } = setup({ follow: { afterGreen: { action: 'give-back', afterSeconds: 5 } } });
    const giveBack = vi.fn();
    sessions.setHooks({ giveBack });
    sessions.played('green', 7);
    vi.advanceTimersByTime(5_000);
    expect(giveBack).toHaveBeenCalledWith(7);
  });
});
