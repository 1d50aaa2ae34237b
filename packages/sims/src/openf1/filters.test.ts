import { describe, expect, test } from 'vitest';
import { matchesFilters, parseFilterQuery, parseOpenF1Date } from './filters.js';

const none = { session_key: null, meeting_key: null };

function filtersOf(query: string) {
  const parsed = parseFilterQuery(query);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.query.filters;
}

describe('OpenF1 filter parsing', () => {
  test('dates without a zone are UTC and a space may separate date and time', () => {
    expect(parseOpenF1Date('2023-09-16T13:03:35.200')).toBe(Date.parse('2023-09-16T13:03:35.200Z'));
    expect(parseOpenF1Date('2023-09-16 13:03:35')).toBe(Date.parse('2023-09-16T13:03:35Z'));
    expect(parseOpenF1Date('2025-04-11T11:21:16.603025+00:00')).toBe(Date.parse('2025-04-11T11:21:16.603Z'));
    expect(parseOpenF1Date('not a date')).toBeNull();
  });

  test('a bound on its own and a bound pair become separate alternatives in order', () => {
    const filters = filtersOf('position>=4&position<=7&position>=10&position<=15');
    expect(filters.get('position')).toHaveLength(2);
    for (const p of [4, 7, 10, 15]) expect(matchesFilters({ position: p }, filters, none)).toBe(true);
    for (const p of [3, 8, 9, 16]) expect(matchesFilters({ position: p }, filters, none)).toBe(false);
  });

  test('numbers, booleans and strings compare by the type of the stored value', () => {
    const filters = filtersOf('year=2024&is_cancelled=false&session_name=Race');
    expect(matchesFilters({ year: 2024, is_cancelled: false, session_name: 'Race' }, filters, none)).toBe(
      true,
    );
    expect(matchesFilters({ year: 2024, is_cancelled: true, session_name: 'Race' }, filters, none)).toBe(
      false,
    );
    expect(matchesFilters({ year: 2024, is_cancelled: false, session_name: 'Sprint' }, filters, none)).toBe(
      false,
    );
  });

  test('a field the row lacks never matches', () => {
    expect(matchesFilters({ year: 2024 }, filtersOf('flag=RED'), none)).toBe(false);
  });

  test('a token without an operator is refused', () => {
    expect(parseFilterQuery('session_key').ok).toBe(false);
    expect(parseFilterQuery('date>2024-13-45').ok).toBe(false);
  });

  test('csv=true is an output switch, not a filter', () => {
    const parsed = parseFilterQuery('csv=true&year=2024');
    expect(parsed.ok && parsed.query.csv).toBe(true);
    expect(parsed.ok && [...parsed.query.filters.keys()]).toEqual(['year']);
  });
});
