import { deriveFlagTimeline, describeFlagPeriods, type FlagEvent } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import {
  MAIL_TIMELINE_COLORS,
  renderTimelineHtml,
  renderTimelineText,
  timelineFromEvents,
} from './timeline-mail.js';

const START = Date.parse('2025-07-06T14:00:00Z');
const MIN = 60_000;

function event(id: number, minute: number, state: FlagEvent['data']['state'], extra = {}): FlagEvent {
  const date = new Date(START + minute * MIN).toISOString();
  return {
    id,
    data: {
      sessionKey: 9947,
      state,
      activeSectors: [],
      cause: { date, message: state.toUpperCase() },
      emittedAt: date,
      ...extra,
    },
  };
}

const timeline = deriveFlagTimeline(
  [
    { at: START + 10 * MIN, state: 'yellow', activeSectors: [], safetyCar: true },
    { at: START + 15 * MIN, state: 'green', activeSectors: [] },
    { at: START + 20 * MIN, state: 'yellow', activeSectors: [7] },
    { at: START + 21 * MIN, state: 'green', activeSectors: [] },
    { at: START + 90 * MIN, state: 'checkered', activeSectors: [] },
  ],
  { start: START, end: START + 100 * MIN },
);

describe('the timeline in the post-race e-mail', () => {
  test('the HTML is one table row of coloured cells, sized by length, without images or classes', () => {
    const html = renderTimelineHtml(timeline);
    expect(html).not.toMatch(/<img|class=|<style/);
    const bar = /<table[^>]*><tr>(.*?)<\/tr><\/table>/.exec(html)?.[1] ?? '';
    const cells = [...bar.matchAll(/<td width="([\d.]+)%" bgcolor="(#[0-9a-f]{6})"/g)];
    expect(cells.map((c) => c[2])).toEqual([
      MAIL_TIMELINE_COLORS.green,
      MAIL_TIMELINE_COLORS.safety_car,
      MAIL_TIMELINE_COLORS.green,
      MAIL_TIMELINE_COLORS.checkered,
    ]);
    expect(cells.map((c) => c[1])).toEqual(['10.00', '5.00', '75.00', '10.00']);
    for (const line of describeFlagPeriods(timeline)) expect(html).toContain(line);
    expect(html).toContain('Local yellows: Yellow in sector 7 at 20:00.');
  });

  test('the plain text lists one period per line', () => {
    expect(renderTimelineText(timeline)).toBe(
      [
        'The session in one picture:',
        '- Green 0:00–10:00',
        '- Safety car 10:00–15:00',
        '- Green 15:00–1:30:00',
        '- Chequered 1:30:00–1:40:00',
        'Local yellows: Yellow in sector 7 at 20:00.',
      ].join('\n'),
    );
  });

  test("a followed session's events give its timeline from the session start to now", () => {
    const events = [event(1, 2, 'green'), event(2, 5, 'red'), event(3, 9, 'yellow', { safetyCar: true })];
    const derived = timelineFromEvents(events, { start: START, now: START + 12 * MIN });
    expect(derived?.periods.map((p) => [p.from / MIN, p.to / MIN, p.state])).toEqual([
      [0, 5, 'green'],
      [5, 9, 'red'],
      [9, 12, 'safety_car'],
    ]);
    // A start after the first event (a wrong date in the tracked data) gives way to the events.
    expect(timelineFromEvents(events, { start: START + 4 * MIN, now: START + 12 * MIN })?.lengthMs).toBe(
      10 * MIN,
    );
    expect(timelineFromEvents([], { start: START, now: START + MIN })).toBeNull();
    expect(timelineFromEvents(events, { start: null, now: START })).toBeNull();
    const undated = {
      ...event(4, 0, 'red'),
      data: { ...event(4, 0, 'red').data, cause: { date: '', message: '' }, emittedAt: 'x' },
    };
    expect(timelineFromEvents([undated], { start: null, now: START })).toBeNull();
  });
});
