import { describe, expect, test } from 'vitest';
import { SessionSummarySchema } from '../types/race.js';
import { isSessionLive } from './activity.js';
import { createFallbackPracticeSession, createFallbackRace } from './fallback.js';

describe('fallbacks', () => {
  test('the fallback race is Baku with the race at 15:00 and qualifying at 16:00', () => {
    const race = createFallbackRace({ raceDate: '2025-09-21' });
    expect(race.Circuit.Location.locality).toBe('Baku');
    expect(race.season).toBe('2025');
    expect(race.time).toBe('15:00:00Z');
    expect(race.Qualifying).toEqual({ date: '2025-09-20', time: '16:00:00Z' });
    expect(createFallbackRace({ raceDate: '2025-09-21', season: '2026' }).season).toBe('2026');
  });

  test('the placeholder practice session starts now and is live', () => {
    const now = Date.parse('2025-07-06T14:07:00Z');
    const session = createFallbackPracticeSession({ now });
    expect(SessionSummarySchema.parse(session)).toEqual(session);
    expect(session.session_type).toBe('Practice');
    expect(isSessionLive(Date.parse(session.date_start), { now })).toBe(true);
  });
});
