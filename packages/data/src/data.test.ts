import { expect, test } from 'vitest';
import { findBundledSession, loadBundledSessions, loadCalendar2026, raceStart } from './index.js';

test('every recorded session loads, oldest first, under a unique id and session key', () => {
  const sessions = loadBundledSessions();
  expect(sessions.length).toBeGreaterThan(0);
  expect(new Set(sessions.map((s) => s.id)).size).toBe(sessions.length);
  expect(new Set(sessions.map((s) => s.sessionKey)).size).toBe(sessions.length);
  const starts = sessions.map((s) => s.scheduledStart);
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
  const first = sessions[0]!;
  expect(findBundledSession(first.id)).toBe(first);
  expect(findBundledSession(String(first.sessionKey))).toBe(first);
});

test('the bundled calendar is the 2026 season, races in order', () => {
  const calendar = loadCalendar2026();
  expect(calendar.season).toBe('2026');
  const starts = calendar.Races.map(raceStart);
  expect(starts.every((ms) => !Number.isNaN(ms))).toBe(true);
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
});
