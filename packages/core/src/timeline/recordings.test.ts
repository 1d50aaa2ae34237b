import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listRaceControlFixtures, loadRaceControlFixture, TEST_DATA_DIR } from '../../test/fixtures.js';
import { fuseInputs, readLiveTimingStreams } from '../flags/live-timing.js';
import { deriveLightChanges, readMessageDate } from '../flags/tracker.js';
import { describeFlagPeriods, describeFlagTimeline } from './describe.js';
import { deriveFlagTimeline, toTimelineChange } from './flag-timeline.js';
import { deriveRaceControlTimelineChanges } from './race-control.js';

/** The product's recordings (packages/data), read as files: core may not import the data package. */
const RECORDINGS_DIR = join(TEST_DATA_DIR, '..', '..', 'data', 'race-control');
const recordings = listRaceControlFixtures(RECORDINGS_DIR);

function timelineOf(name: string) {
  const { messages } = loadRaceControlFixture(name, RECORDINGS_DIR);
  const dates = messages.flatMap((m) => readMessageDate(m)?.ms ?? []);
  const start = Math.min(...dates);
  const end = Math.max(...dates);
  return deriveFlagTimeline(deriveRaceControlTimelineChanges(messages), { start, end });
}

describe('the timeline of every recorded session', () => {
  test('there are recordings to check', () => {
    expect(recordings.length).toBeGreaterThan(20);
  });

  test.each(recordings)('%s: periods cover the session without gaps and the text lists them', (name) => {
    const timeline = timelineOf(name);
    expect(timeline.periods.length).toBeGreaterThan(0);
    expect(timeline.periods[0]?.from).toBe(0);
    expect(timeline.periods.at(-1)?.to).toBe(timeline.lengthMs);
    timeline.periods.forEach((period, i) => {
      expect(period.to).toBeGreaterThan(period.from);
      if (i > 0) {
        expect(period.from).toBe(timeline.periods[i - 1]?.to);
        expect(period.state).not.toBe(timeline.periods[i - 1]?.state);
      }
    });
    const text = describeFlagTimeline(timeline);
    for (const line of describeFlagPeriods(timeline)) expect(text).toContain(line);
  });

  test.each(recordings)(
    '%s: the periods are the light changes, safety cars behind local yellows aside',
    (name) => {
      const { messages } = loadRaceControlFixture(name, RECORDINGS_DIR);
      const timeline = timelineOf(name);
      const fromLights = deriveFlagTimeline(deriveLightChanges(messages).map(toTimelineChange), {
        start: Date.parse(String((messages[0] as { date: string }).date)),
        end: Date.parse(String((messages[0] as { date: string }).date)) + timeline.lengthMs,
      });
      const red = (t: typeof timeline) => t.periods.filter((p) => p.state === 'red').length;
      const chequered = (t: typeof timeline) => t.periods.filter((p) => p.state === 'checkered').length;
      expect(red(timeline)).toBe(red(fromLights));
      expect(chequered(timeline)).toBe(chequered(fromLights));
    },
  );

  test('a race with a safety car, a red flag and a chequered flag shows all three', () => {
    const states = new Set(timelineOf('2021-saudi-arabia-race').periods.map((p) => p.state));
    expect(states).toEqual(new Set(['green', 'safety_car', 'red', 'vsc', 'checkered']));
  });
});

describe('the timeline of the fused live-timing streams', () => {
  const withStreams = listRaceControlFixtures().filter((name) => {
    const merged = readLiveTimingStreams(loadRaceControlFixture(name).live_timing);
    return merged.ok && merged.inputs.length > 0;
  });

  test.each(withStreams)('%s: fused changes give periods without gaps', (name) => {
    const merged = readLiveTimingStreams(loadRaceControlFixture(name).live_timing);
    if (!merged.ok) throw new Error(merged.error);
    const end = Math.max(...merged.inputs.map((input) => input.at));
    // The stream clock (`at`, ms offsets) is the timeline's clock here.
    const changes = fuseInputs(merged.inputs).map((change) => ({
      ...toTimelineChange(change),
      at: change.at,
    }));
    const timeline = deriveFlagTimeline(changes, { start: 0, end });
    expect(timeline.periods[0]?.from).toBe(0);
    expect(timeline.periods.at(-1)?.to).toBe(end);
    timeline.periods.slice(1).forEach((period, i) => expect(period.from).toBe(timeline.periods[i]?.to));
  });

  test('2025 Bahrain: the safety car TrackStatus showed is a safety-car period', () => {
    const merged = readLiveTimingStreams(loadRaceControlFixture('2025-bahrain-race').live_timing);
    if (!merged.ok) throw new Error(merged.error);
    const changes = fuseInputs(merged.inputs).map((change) => ({
      ...toTimelineChange(change),
      at: change.at,
    }));
    const timeline = deriveFlagTimeline(changes, { start: 0, end: 8_000_000 });
    const safetyCar = timeline.periods.find((p) => p.state === 'safety_car');
    expect([safetyCar?.from, safetyCar?.to]).toEqual([6_475_160, 6_940_811]);
  });
});
