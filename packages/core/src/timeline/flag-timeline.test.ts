import { describe, expect, test } from 'vitest';
import { fastestLap, isoAt, safetyCar, sectorFlag, trackFlag } from '../../test/builders.js';
import { deriveLightChanges } from '../flags/tracker.js';
import type { LightState } from '../flags/types.js';
import { describeFlagTimeline, formatTimelineTime } from './describe.js';
import {
  deriveFlagTimeline,
  findFlagPeriod,
  findNextFlagChange,
  toTimelineChange,
  type TimelineChange,
} from './flag-timeline.js';

const START = Date.parse(isoAt(0));
const MIN = 60_000;

function change(minute: number, state: LightState, extra: Partial<TimelineChange> = {}): TimelineChange {
  return { at: START + minute * MIN, state, activeSectors: [], ...extra };
}

function timelineOf(messages: unknown[], minutes: number) {
  return deriveFlagTimeline(deriveLightChanges(messages).map(toTimelineChange), {
    start: START,
    end: START + minutes * MIN,
  });
}

describe('deriveFlagTimeline', () => {
  test('a session with no changes is one green period over its whole length', () => {
    expect(deriveFlagTimeline([], { start: START, end: START + 90 * MIN })).toEqual({
      lengthMs: 90 * MIN,
      periods: [{ from: 0, to: 90 * MIN, state: 'green' }],
      sectorMarks: [],
    });
  });

  test('race-control messages become green, safety car, red, VSC and chequered periods', () => {
    const timeline = timelineOf(
      [
        trackFlag('GREEN', 60),
        safetyCar('SAFETY CAR DEPLOYED', 10 * 60),
        trackFlag('RED', 15 * 60),
        trackFlag('CLEAR', 30 * 60),
        safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 40 * 60),
        safetyCar('VIRTUAL SAFETY CAR ENDING', 42 * 60),
        trackFlag('CLEAR', 43 * 60),
        trackFlag('CHEQUERED', 80 * 60),
      ],
      90,
    );
    expect(timeline.periods).toEqual([
      { from: 0, to: 10 * MIN, state: 'green' },
      { from: 10 * MIN, to: 15 * MIN, state: 'safety_car' },
      { from: 15 * MIN, to: 30 * MIN, state: 'red' },
      { from: 30 * MIN, to: 40 * MIN, state: 'green' },
      // VSC ending is still the virtual safety car until the green.
      { from: 40 * MIN, to: 43 * MIN, state: 'vsc' },
      { from: 43 * MIN, to: 80 * MIN, state: 'green' },
      { from: 80 * MIN, to: 90 * MIN, state: 'checkered' },
    ]);
  });

  test('sector yellows are thin marks under a green period, not periods', () => {
    const timeline = timelineOf([sectorFlag('YELLOW', 7, 5 * 60), sectorFlag('CLEAR', 7, 6 * 60)], 20);
    expect(timeline.periods).toEqual([{ from: 0, to: 20 * MIN, state: 'green' }]);
    expect(timeline.sectorMarks).toEqual([{ from: 5 * MIN, to: 6 * MIN, sectors: [7] }]);
  });

  test('a sector yellow still showing at the end runs to the end; a track flag closes it', () => {
    expect(timelineOf([sectorFlag('YELLOW', 3, 60)], 10).sectorMarks).toEqual([
      { from: MIN, to: 10 * MIN, sectors: [3] },
    ]);
    const closed = timelineOf([sectorFlag('DOUBLE YELLOW', 3, 60), trackFlag('RED', 2 * 60)], 10);
    expect(closed.sectorMarks).toEqual([{ from: MIN, to: 2 * MIN, sectors: [3] }]);
    expect(closed.periods.map((p) => p.state)).toEqual(['green', 'red']);
  });

  test('the fused safetyCar flag decides over the text, and a yellow without sectors is a track yellow', () => {
    const timeline = deriveFlagTimeline(
      [
        change(1, 'yellow', { safetyCar: true, cause: { message: 'TRACK STATUS 4' } }),
        change(2, 'green'),
        change(3, 'yellow', { safetyCar: false, cause: { message: 'SAFETY CAR DEPLOYED' } }),
        change(4, 'green'),
        change(5, 'yellow'),
      ],
      { start: START, end: START + 6 * MIN },
    );
    expect(timeline.periods.map((p) => p.state)).toEqual([
      'green',
      'safety_car',
      'green',
      'yellow',
      'green',
      'yellow',
    ]);
  });

  test('a fastest lap changes nothing, and equal states next to each other merge', () => {
    const timeline = timelineOf([fastestLap(60), trackFlag('GREEN', 120), trackFlag('CLEAR', 180)], 5);
    expect(timeline.periods).toEqual([{ from: 0, to: 5 * MIN, state: 'green' }]);
  });

  test('changes before the start set the first state; changes after the end are ignored', () => {
    const timeline = deriveFlagTimeline(
      [change(-5, 'red'), change(2, 'green'), change(9, 'checkered'), change(12, 'red')],
      { start: START, end: START + 10 * MIN },
    );
    expect(timeline.periods).toEqual([
      { from: 0, to: 2 * MIN, state: 'red' },
      { from: 2 * MIN, to: 9 * MIN, state: 'green' },
      { from: 9 * MIN, to: 10 * MIN, state: 'checkered' },
    ]);
  });

  test('changes out of order are sorted and unreadable dates skipped; an empty window has no periods', () => {
    const timeline = deriveFlagTimeline(
      [change(4, 'green'), change(2, 'red'), { ...change(3, 'vsc'), at: Number.NaN }],
      { start: START, end: START + 5 * MIN },
    );
    expect(timeline.periods.map((p) => [p.from / MIN, p.state])).toEqual([
      [0, 'green'],
      [2, 'red'],
      [4, 'green'],
    ]);
    expect(deriveFlagTimeline([change(0, 'red')], { start: START, end: START - 1 })).toEqual({
      lengthMs: 0,
      periods: [],
      sectorMarks: [],
    });
  });

  test('a change exactly at the end opens no empty period', () => {
    const timeline = deriveFlagTimeline([change(10, 'checkered')], { start: START, end: START + 10 * MIN });
    expect(timeline.periods).toEqual([{ from: 0, to: 10 * MIN, state: 'green' }]);
  });
});

describe('finding positions', () => {
  const timeline = deriveFlagTimeline(
    [change(2, 'yellow', { activeSectors: [4] }), change(3, 'green'), change(5, 'red')],
    { start: START, end: START + 8 * MIN },
  );

  test('the period at a position, the end belonging to the last one', () => {
    expect(findFlagPeriod(timeline, 6 * MIN)?.state).toBe('red');
    expect(findFlagPeriod(timeline, 8 * MIN)?.state).toBe('red');
    expect(findFlagPeriod(timeline, 9 * MIN)).toBeNull();
    expect(findFlagPeriod({ lengthMs: 0, periods: [], sectorMarks: [] }, 0)).toBeNull();
  });

  test('the next flag change is the next period or local yellow after the position', () => {
    expect(findNextFlagChange(timeline, 0)).toBe(2 * MIN);
    expect(findNextFlagChange(timeline, 2 * MIN)).toBe(5 * MIN);
    expect(findNextFlagChange(timeline, 5 * MIN)).toBeNull();
  });
});

describe('describing a timeline', () => {
  test('times read as minutes and seconds, with hours from the first hour on', () => {
    expect(formatTimelineTime(0)).toBe('0:00');
    expect(formatTimelineTime(14 * MIN + 32_900)).toBe('14:32');
    expect(formatTimelineTime(65 * MIN + 9_000)).toBe('1:05:09');
    expect(formatTimelineTime(-5)).toBe('0:00');
  });

  test('the text lists every period and every local yellow', () => {
    const timeline = deriveFlagTimeline(
      [
        change(14.5, 'yellow', { safetyCar: true }),
        change(21, 'green'),
        change(30, 'yellow', { activeSectors: [7] }),
        change(31, 'yellow', { activeSectors: [2, 3] }),
        change(32, 'green'),
      ],
      { start: START, end: START + 40 * MIN },
    );
    expect(describeFlagTimeline(timeline)).toBe(
      'Green 0:00–14:30, Safety car 14:30–21:00, Green 21:00–40:00. ' +
        'Local yellows: Yellow in sector 7 at 30:00, Yellow in sectors 2, 3 at 31:00.',
    );
  });

  test('an empty timeline says so', () => {
    expect(describeFlagTimeline({ lengthMs: 0, periods: [], sectorMarks: [] })).toBe('No flags yet.');
  });
});
