import { describe, expect, test } from 'vitest';
import { buildRace } from '../../test/builders.js';
import {
  findNextRace,
  formatSessionTime,
  groupSeason,
  listRaceSessions,
  listRaceStarts,
  parseSessionStart,
  SESSION_COLORS,
} from './schedule.js';

const sprintWeekend = buildRace({
  round: '6',
  raceName: 'Miami Grand Prix',
  date: '2025-05-04',
  time: '20:00:00Z',
  SecondPractice: undefined,
  ThirdPractice: undefined,
  FirstPractice: { date: '2025-05-02', time: '16:30:00Z' },
  SprintQualifying: { date: '2025-05-02', time: '20:30:00Z' },
  Sprint: { date: '2025-05-03', time: '16:00:00Z' },
  Qualifying: { date: '2025-05-03', time: '20:00:00Z' },
});

describe('schedule', () => {
  test('session colours: practice blue, qualifying purple, sprint orange, sprint qualifying pink, race green', () => {
    expect(SESSION_COLORS).toEqual({
      practice: 'blue',
      qualifying: 'purple',
      sprint: 'orange',
      'sprint-qualifying': 'pink',
      race: 'green',
    });
  });

  test('lists a standard weekend in order with labels and colours', () => {
    const sessions = listRaceSessions(buildRace());
    expect(sessions.map((s) => [s.label, s.color])).toEqual([
      ['Practice 1', 'blue'],
      ['Practice 2', 'blue'],
      ['Practice 3', 'blue'],
      ['Qualifying', 'purple'],
      ['Race', 'green'],
    ]);
    expect(sessions.at(-1)?.startMs).toBe(Date.parse('2025-07-06T14:00:00Z'));
  });

  test('lists a sprint weekend, and the 2023 Sprint Shootout as sprint qualifying', () => {
    expect(listRaceSessions(sprintWeekend).map((s) => s.label)).toEqual([
      'Practice 1',
      'Sprint Qualifying',
      'Sprint',
      'Qualifying',
      'Race',
    ]);
    const shootout = buildRace({ SprintShootout: { date: '2023-04-29', time: '09:30:00Z' } });
    expect(listRaceSessions(shootout).some((s) => s.kind === 'sprint-qualifying')).toBe(true);
  });

  test('a missing time reads as midnight UTC; a bad date is skipped', () => {
    expect(parseSessionStart({ date: '2025-07-06' })).toBe(Date.parse('2025-07-06T00:00:00Z'));
    expect(parseSessionStart({ date: '2025-07-06', time: '14:00:00' })).toBe(
      Date.parse('2025-07-06T14:00:00Z'),
    );
    expect(parseSessionStart({ date: 'soon' })).toBeNull();
    expect(listRaceSessions(buildRace({ date: 'tbc' })).some((s) => s.kind === 'race')).toBe(false);
  });

  test('groups a season by round and finds the next race', () => {
    const season = groupSeason([buildRace(), sprintWeekend]);
    expect(season.map((race) => race.round)).toEqual([6, 12]);
    expect(season[0]).toMatchObject({ raceName: 'Miami Grand Prix', circuitName: 'Silverstone Circuit' });
    const now = Date.parse('2025-05-10T00:00:00Z');
    expect(findNextRace([buildRace(), sprintWeekend], { now })?.round).toBe(12);
    expect(findNextRace([sprintWeekend], { now })).toBeNull();
    expect(listRaceStarts([buildRace(), buildRace({ date: 'x' })])).toEqual([
      Date.parse('2025-07-06T14:00:00Z'),
    ]);
  });

  test("formats times in the viewer's time zone", () => {
    const start = Date.parse('2025-07-06T14:00:00Z');
    expect(formatSessionTime(start, { timeZone: 'Europe/London' })).toMatch(/3:00\s?PM/);
    expect(formatSessionTime(start, { timeZone: 'Australia/Melbourne' })).toMatch(/12:00\s?AM/);
    expect(formatSessionTime(start, { timeZone: 'UTC', locale: 'en-GB' })).toMatch(/14:00/);
  });
});
