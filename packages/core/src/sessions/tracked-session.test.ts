import { describe, expect, test } from 'vitest';
import { isRaceOrSprint, shouldEndTrackedSession } from './tracked-session.js';

const END = '2025-07-06T16:00:00+00:00';
const before = Date.parse(END) - 1;

describe('shouldEndTrackedSession', () => {
  test('ends once date_end has passed', () => {
    const q = { sessionName: 'Qualifying', sessionType: 'Qualifying', dateEnd: END };
    expect(shouldEndTrackedSession(q, { now: before })).toBe(false);
    expect(shouldEndTrackedSession(q, { now: Date.parse(END) })).toBe(true);
  });

  test('ends on the chequered flag of a race or a sprint', () => {
    expect(
      shouldEndTrackedSession(
        { sessionName: 'Race', sessionType: 'Race', dateEnd: END },
        { now: before, state: 'checkered' },
      ),
    ).toBe(true);
    expect(
      shouldEndTrackedSession(
        { sessionName: 'Sprint', sessionType: 'Race' },
        { now: before, state: 'checkered' },
      ),
    ).toBe(true);
  });

  test('does not end at the end of Q1 (a qualifying chequered flag)', () => {
    const q = { sessionName: 'Qualifying', sessionType: 'Qualifying', dateEnd: END };
    expect(shouldEndTrackedSession(q, { now: before, state: 'checkered' })).toBe(false);
    expect(
      shouldEndTrackedSession(
        { sessionName: 'Sprint Qualifying', sessionType: 'Race' },
        { now: before, state: 'checkered' },
      ),
    ).toBe(false);
  });

  test('does not end on other states, or with an unreadable end date', () => {
    expect(
      shouldEndTrackedSession({ sessionType: 'Race', dateEnd: 'soon' }, { now: before, state: 'red' }),
    ).toBe(false);
    expect(shouldEndTrackedSession({}, { now: before, state: null })).toBe(false);
  });
});

describe('isRaceOrSprint', () => {
  test.each([
    [{ sessionName: 'Race', sessionType: 'Race' }, true],
    [{ sessionName: 'Sprint' }, true],
    [{ sessionName: 'Race' }, true],
    [{ sessionType: 'race' }, true],
    [{ sessionName: 'Sprint Shootout', sessionType: 'Qualifying' }, false],
    [{ sessionName: 'Practice 1', sessionType: 'Practice' }, false],
    [{ sessionName: null, sessionType: null }, false],
  ])('%j → %s', (session, expected) => {
    expect(isRaceOrSprint(session)).toBe(expected);
  });
});
