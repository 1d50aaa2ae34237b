import { describe, expect, test } from 'vitest';
import {
  buildMessage,
  fastestLap,
  isoAt,
  otherMessage,
  safetyCar,
  sectorFlag,
  trackFlag,
} from '../../test/builders.js';
import { createFlagTracker, deriveLightChanges, readMessageDate } from './tracker.js';

describe('createFlagTracker', () => {
  test('starts green with no active sectors', () => {
    const tracker = createFlagTracker();
    expect(tracker.state()).toBe('green');
    expect(tracker.activeSectors()).toEqual([]);
  });

  test('can start from another state', () => {
    expect(createFlagTracker({ initialState: 'red' }).state()).toBe('red');
  });

  test('a sector yellow turns the lights yellow, with the sector and its cause', () => {
    const tracker = createFlagTracker();
    const message = sectorFlag('DOUBLE YELLOW', 9, 10);
    expect(tracker.push(message)).toEqual({
      date: isoAt(10),
      state: 'yellow',
      activeSectors: [9],
      cause: { date: isoAt(10), message: 'DOUBLE YELLOW IN TRACK SECTOR 9' },
    });
  });

  test('a second sector yellow changes nothing but is tracked, ascending', () => {
    const tracker = createFlagTracker();
    tracker.push(sectorFlag('YELLOW', 12, 1));
    expect(tracker.push(sectorFlag('YELLOW', 3, 2))).toBeNull();
    expect(tracker.activeSectors()).toEqual([3, 12]);
  });

  test('yellow turns green only when the last active sector clears', () => {
    const tracker = createFlagTracker();
    tracker.push(sectorFlag('YELLOW', 3, 1));
    tracker.push(sectorFlag('YELLOW', 4, 2));
    expect(tracker.push(sectorFlag('CLEAR', 3, 3))).toBeNull();
    expect(tracker.push(sectorFlag('GREEN', 4, 4))).toMatchObject({ state: 'green', activeSectors: [] });
  });

  test('red flag clears every yellow sector', () => {
    const tracker = createFlagTracker();
    tracker.push(sectorFlag('YELLOW', 3, 1));
    expect(tracker.push(trackFlag('RED', 2))).toMatchObject({ state: 'red', activeSectors: [] });
  });

  test('a sector yellow under a red flag keeps the lights red', () => {
    const tracker = createFlagTracker();
    tracker.push(trackFlag('RED', 1));
    expect(tracker.push(sectorFlag('YELLOW', 5, 2))).toBeNull();
    expect(tracker.state()).toBe('red');
    expect(tracker.activeSectors()).toEqual([5]);
  });

  test('track clear after a red flag gives green with no sectors', () => {
    const tracker = createFlagTracker();
    tracker.push(trackFlag('RED', 1));
    tracker.push(sectorFlag('YELLOW', 5, 2));
    expect(tracker.push(trackFlag('CLEAR', 3))).toMatchObject({ state: 'green', activeSectors: [] });
  });

  test('chequered flag gives checkered and clears every sector', () => {
    const tracker = createFlagTracker();
    tracker.push(sectorFlag('YELLOW', 5, 1));
    expect(tracker.push(trackFlag('CHEQUERED', 2))).toMatchObject({ state: 'checkered', activeSectors: [] });
  });

  test('green light after a qualifying chequered flag gives green again', () => {
    const tracker = createFlagTracker();
    tracker.push(trackFlag('CHEQUERED', 1));
    expect(tracker.push(trackFlag('GREEN', 2))).toMatchObject({ state: 'green' });
  });

  test('a safety car period is yellow until track clear', () => {
    const tracker = createFlagTracker();
    expect(tracker.push(safetyCar('SAFETY CAR DEPLOYED', 1))).toMatchObject({ state: 'yellow' });
    expect(tracker.push(safetyCar('SAFETY CAR IN THIS LAP', 2))).toBeNull();
    expect(tracker.push(trackFlag('CLEAR', 3))).toMatchObject({ state: 'green' });
  });

  test('a VSC goes vsc, vsc_ending, then green on track clear', () => {
    const tracker = createFlagTracker();
    expect(tracker.push(safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 1))).toMatchObject({ state: 'vsc' });
    expect(tracker.push(safetyCar('VIRTUAL SAFETY CAR ENDING', 2))).toMatchObject({ state: 'vsc_ending' });
    expect(tracker.push(safetyCar('VIRTUAL SAFETY CAR ENDING', 3))).toBeNull();
    expect(tracker.push(trackFlag('CLEAR', 4))).toMatchObject({ state: 'green' });
  });

  test('a VSC upgraded to a safety car turns yellow', () => {
    const tracker = createFlagTracker();
    tracker.push(safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 1));
    expect(tracker.push(safetyCar('SAFETY CAR DEPLOYED', 20))).toMatchObject({ state: 'yellow' });
  });

  test('a fastest lap is a momentary change that leaves the state alone', () => {
    const tracker = createFlagTracker();
    tracker.push(sectorFlag('YELLOW', 2, 1));
    expect(tracker.push(fastestLap(2))).toMatchObject({
      state: 'fastest_lap',
      activeSectors: [2],
      date: isoAt(2),
    });
    expect(tracker.state()).toBe('yellow');
    expect(tracker.push(otherMessage('DRS ENABLED', 3))).toBeNull();
  });

  test('other messages change nothing', () => {
    expect(createFlagTracker().push(otherMessage('PIT EXIT CLOSED'))).toBeNull();
  });

  test('a record without a readable date is skipped whole', () => {
    const tracker = createFlagTracker();
    expect(tracker.push({ ...trackFlag('RED'), date: null })).toBeNull();
    expect(tracker.push({ ...trackFlag('RED'), date: 'yesterday' })).toBeNull();
    expect(tracker.push(null)).toBeNull();
    expect(tracker.state()).toBe('green');
  });

  test('a change caused by a record without text has an empty cause message', () => {
    const change = createFlagTracker().push(
      buildMessage({ category: 'Flag', flag: 'RED', scope: 'Track', message: null }),
    );
    expect(change?.cause).toEqual({ date: isoAt(0), message: '' });
  });
});

describe('pushBatch', () => {
  test('several messages of one poll give one change, the final one', () => {
    const tracker = createFlagTracker();
    const change = tracker.pushBatch([
      sectorFlag('YELLOW', 4, 1),
      trackFlag('RED', 2),
      otherMessage('RED FLAG NOTE', 3),
    ]);
    expect(change).toEqual({
      date: isoAt(2),
      state: 'red',
      activeSectors: [],
      cause: { date: isoAt(2), message: 'RED FLAG' },
    });
  });

  test('a batch that ends where it started gives no change', () => {
    const tracker = createFlagTracker();
    expect(tracker.pushBatch([sectorFlag('YELLOW', 4, 1), sectorFlag('CLEAR', 4, 2)])).toBeNull();
  });

  test('the batch change carries the sectors active at its end', () => {
    const tracker = createFlagTracker();
    const change = tracker.pushBatch([sectorFlag('YELLOW', 4, 1), sectorFlag('YELLOW', 2, 2)]);
    expect(change).toMatchObject({ state: 'yellow', activeSectors: [2, 4], date: isoAt(1) });
  });

  test('a fastest lap in a batch without a state change is the change', () => {
    const tracker = createFlagTracker();
    expect(tracker.pushBatch([otherMessage('DRS ENABLED', 1), fastestLap(2)])).toMatchObject({
      state: 'fastest_lap',
    });
  });

  test('a state change outranks a fastest lap in the same batch', () => {
    const tracker = createFlagTracker();
    expect(tracker.pushBatch([fastestLap(1), trackFlag('RED', 2), fastestLap(3)])).toMatchObject({
      state: 'red',
    });
  });

  test('an empty or malformed batch gives nothing', () => {
    const tracker = createFlagTracker();
    expect(tracker.pushBatch([])).toBeNull();
    expect(tracker.pushBatch('nope' as unknown as unknown[])).toBeNull();
  });
});

describe('deriveLightChanges', () => {
  test('lists every change of a stream in order', () => {
    const changes = deriveLightChanges([
      trackFlag('GREEN', 0),
      safetyCar('SAFETY CAR DEPLOYED', 10),
      trackFlag('CLEAR', 20),
      trackFlag('CHEQUERED', 30),
    ]);
    expect(changes.map((change) => [change.date, change.state])).toEqual([
      [isoAt(10), 'yellow'],
      [isoAt(20), 'green'],
      [isoAt(30), 'checkered'],
    ]);
  });

  test('processes messages oldest first, arrival order breaking ties', () => {
    const changes = deriveLightChanges([
      trackFlag('CLEAR', 20),
      trackFlag('RED', 10),
      trackFlag('CHEQUERED', 20),
    ]);
    expect(changes.map((change) => change.state)).toEqual(['red', 'green', 'checkered']);
  });

  test('skips undated records and survives non-arrays', () => {
    expect(deriveLightChanges([{ flag: 'RED' }, 5, null, trackFlag('RED', 1)]).map((c) => c.state)).toEqual([
      'red',
    ]);
    expect(deriveLightChanges({} as unknown as unknown[])).toEqual([]);
  });
});

describe('readMessageDate', () => {
  test('reads ISO dates and rejects the rest', () => {
    expect(readMessageDate({ date: '2025-07-06T14:00:00+00:00' })).toEqual({
      text: '2025-07-06T14:00:00+00:00',
      ms: Date.parse('2025-07-06T14:00:00Z'),
    });
    expect(readMessageDate({ date: 5 })).toBeNull();
    expect(readMessageDate('x')).toBeNull();
  });
});
