import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fastestLap, otherMessage, safetyCar, sectorFlag, trackFlag } from '../../test/builders.js';
import { createFlagTracker, deriveLightChanges } from './tracker.js';

const seconds = fc.integer({ min: 0, max: 7200 });
const sector = fc.integer({ min: 1, max: 20 });

const message = fc.oneof(
  fc
    .tuple(fc.constantFrom('RED', 'GREEN', 'CLEAR', 'CHEQUERED', 'BLUE'), seconds)
    .map(([f, s]) => trackFlag(f, s)),
  fc
    .tuple(fc.constantFrom('YELLOW', 'DOUBLE YELLOW', 'CLEAR', 'GREEN'), sector, seconds)
    .map(([f, n, s]) => sectorFlag(f, n, s)),
  fc
    .tuple(
      fc.constantFrom(
        'SAFETY CAR DEPLOYED',
        'SAFETY CAR IN THIS LAP',
        'VIRTUAL SAFETY CAR DEPLOYED',
        'VSC ENDING',
      ),
      seconds,
    )
    .map(([t, s]) => safetyCar(t, s)),
  seconds.map((s) => fastestLap(s)),
  seconds.map((s) => otherMessage('SAFETY CAR WILL ENTER PITS: STANDING START', s)),
  fc.anything(),
);
const stream = fc.array(message, { maxLength: 60 });

describe('flag derivation properties', () => {
  test('a chequered or red track flag always clears every sector', () => {
    fc.assert(
      fc.property(stream, fc.constantFrom('RED', 'CHEQUERED'), (messages, flag) => {
        const tracker = createFlagTracker();
        for (const m of messages) tracker.push(m);
        tracker.push(trackFlag(flag, 9999));
        expect(tracker.activeSectors()).toEqual([]);
        expect(tracker.state()).toBe(flag === 'RED' ? 'red' : 'checkered');
      }),
    );
  });

  test('a change is never emitted twice in a row with the same lasting state', () => {
    fc.assert(
      fc.property(stream, (messages) => {
        const lasting = deriveLightChanges(messages).filter((change) => change.state !== 'fastest_lap');
        let previous = 'green';
        for (const change of lasting) {
          expect(change.state).not.toBe(previous);
          previous = change.state;
        }
      }),
    );
  });

  test('the batch result equals the last per-message state', () => {
    fc.assert(
      fc.property(stream, stream, (history, poll) => {
        const single = createFlagTracker();
        const batched = createFlagTracker();
        for (const m of history) {
          single.push(m);
          batched.push(m);
        }
        const before = single.state();
        for (const m of poll) single.push(m);
        const change = batched.pushBatch(poll);
        expect(batched.state()).toBe(single.state());
        expect(batched.activeSectors()).toEqual(single.activeSectors());
        if (single.state() !== before) expect(change?.state).toBe(single.state());
        else expect(change === null || change.state === 'fastest_lap').toBe(true);
      }),
    );
  });

  test('active sectors are always ascending and unique', () => {
    fc.assert(
      fc.property(stream, (messages) => {
        for (const change of deriveLightChanges(messages)) {
          expect(change.activeSectors).toEqual([...new Set(change.activeSectors)].sort((a, b) => a - b));
        }
      }),
    );
  });

  test('never throws on any input', () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), (records) => {
        expect(() => deriveLightChanges(records)).not.toThrow();
        expect(() => createFlagTracker().pushBatch(records)).not.toThrow();
      }),
    );
  });
});
