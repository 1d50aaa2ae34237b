import { describe, expect, test } from 'vitest';
import { fastestLap, isoAt, safetyCar, sectorFlag, trackFlag } from '../../test/builders.js';
import { deriveFlagTimeline } from './flag-timeline.js';
import { deriveRaceControlTimelineChanges } from './race-control.js';

const START = Date.parse(isoAt(0));
const MIN = 60_000;

describe('deriveRaceControlTimelineChanges', () => {
  test('a safety car sent out behind a sector yellow becomes a safety-car period', () => {
    const changes = deriveRaceControlTimelineChanges([
      sectorFlag('YELLOW', 12, 60),
      safetyCar('SAFETY CAR DEPLOYED', 120),
      trackFlag('CLEAR', 600),
    ]);
    expect(changes.map((c) => [c.at - START, c.state, c.safetyCar])).toEqual([
      [MIN, 'yellow', false],
      [2 * MIN, 'yellow', true],
      [10 * MIN, 'green', false],
    ]);
    const timeline = deriveFlagTimeline(changes, { start: START, end: START + 15 * MIN });
    expect(timeline.periods.map((p) => p.state)).toEqual(['green', 'safety_car', 'green']);
    expect(timeline.sectorMarks).toEqual([{ from: MIN, to: 2 * MIN, sectors: [12] }]);
  });

  test('messages that change nothing, fastest laps and undated records add no change', () => {
    const changes = deriveRaceControlTimelineChanges([
      trackFlag('RED', 300),
      { message: 'NO DATE', category: 'Flag', flag: 'CHEQUERED', scope: 'Track' },
      fastestLap(30),
      trackFlag('CLEAR', 0),
      trackFlag('RED', 360),
    ]);
    expect(changes.map((c) => [c.at - START, c.state])).toEqual([[5 * MIN, 'red']]);
    expect(deriveRaceControlTimelineChanges('not a list' as unknown as unknown[])).toEqual([]);
  });

  test('the virtual safety car is not a safety car', () => {
    const changes = deriveRaceControlTimelineChanges([safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 60)]);
    expect(changes).toEqual([{ at: START + MIN, state: 'vsc', activeSectors: [], safetyCar: false }]);
  });
});
