import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fastestLap, otherMessage, safetyCar, sectorFlag, trackFlag } from '../../test/builders.js';
import { createFlagFusion, TRACK_STATUS_STATES, type FusedLightChange, type FusionInput } from './fusion.js';
import { fuseInputs } from './live-timing.js';
import { createFlagTracker } from './tracker.js';

const seconds = fc.integer({ min: 0, max: 7200 });
const sector = fc.integer({ min: 1, max: 20 });

const message = fc.oneof(
  fc
    .tuple(fc.constantFrom('RED', 'GREEN', 'CLEAR', 'CHEQUERED', 'BLUE'), seconds)
    .map(([f, s]) => trackFlag(f, s, `${f} FLAG`)),
  // Pit-lane notices, some with scope Track (decision 025).
  seconds.map((s) => trackFlag('GREEN', s, 'GREEN LIGHT - PIT EXIT OPEN')),
  seconds.map((s) => otherMessage('PIT EXIT CLOSED', s)),
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

type Line =
  | { kind: 'race_control'; message: unknown }
  | { kind: 'track_status'; status: unknown }
  | { kind: 'session_status'; status: unknown };

const line: fc.Arbitrary<Line> = fc.oneof(
  message.map((m) => ({ kind: 'race_control' as const, message: m })),
  fc
    .constantFrom('1', '2', '3', '4', '5', '6', '7')
    .map((code) => ({ kind: 'track_status' as const, status: { Status: code, Message: 'x' } })),
  fc
    .constantFrom('Started', 'Aborted', 'Inactive', 'Finished', 'Finalised', 'Ends')
    .map((status) => ({ kind: 'session_status' as const, status: { Status: status } })),
);

/** Lines with arrival gaps of 0 to 8 s, so grace and skew windows are crossed both ways. */
const feed = fc.array(fc.tuple(line, fc.integer({ min: 0, max: 8000 })), { maxLength: 80 }).map((pairs) => {
  let at = 0;
  return pairs.map(([l, gap]): FusionInput => {
    at += gap;
    return { ...l, at };
  });
});

function run(inputs: readonly FusionInput[]): FusedLightChange[] {
  const fusion = createFlagFusion();
  const changes: FusedLightChange[] = [];
  for (const input of inputs) {
    const change = fusion.push(input);
    if (change !== null) changes.push(change);
  }
  return changes;
}

describe('fusion properties', () => {
  test('with race control only, every push gives what the race-control tracker gives', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 80 }), (messages) => {
        const fusion = createFlagFusion();
        const tracker = createFlagTracker();
        messages.forEach((m, i) => {
          const fused = fusion.push({ kind: 'race_control', at: i, message: m });
          const legacy = tracker.push(m);
          if (legacy === null) expect(fused).toBeNull();
          else {
            const { safetyCar: _kind, at: _at, cause, ...rest } = fused as FusedLightChange;
            expect({ ...rest, cause: { date: cause.date, message: cause.message } }).toEqual(legacy);
            expect(cause.source).toBe('race_control');
          }
          expect(fusion.state()).toBe(tracker.state());
          expect(fusion.activeSectors()).toEqual(tracker.activeSectors());
        });
      }),
    );
  });

  test('never emits the same lasting light twice in a row', () => {
    fc.assert(
      fc.property(feed, (inputs) => {
        let previous = { state: 'green', safetyCar: false };
        for (const change of run(inputs)) {
          if (change.state === 'fastest_lap') continue;
          expect([change.state, change.safetyCar]).not.toEqual([previous.state, previous.safetyCar]);
          previous = change;
        }
      }),
    );
  });

  test('a change always says the state the fusion is in', () => {
    fc.assert(
      fc.property(feed, (inputs) => {
        const fusion = createFlagFusion();
        for (const input of inputs) {
          const change = fusion.push(input);
          if (change === null || change.state === 'fastest_lap') continue;
          expect(change.state).toBe(fusion.state());
          expect(change.safetyCar).toBe(fusion.safetyCar());
          expect(change.activeSectors).toEqual(fusion.activeSectors());
          if (change.safetyCar) expect(change.state).toBe('yellow');
        }
      }),
    );
  });

  test('a duplicated TrackStatus line changes nothing', () => {
    fc.assert(
      fc.property(feed, fc.array(fc.nat()), (inputs, picks) => {
        const doubled = inputs.flatMap((input, i) =>
          input.kind === 'track_status' && picks.includes(i) ? [input, { ...input }] : [input],
        );
        expect(run(doubled)).toEqual(run(inputs));
      }),
    );
  });

  test('while TrackStatus is healthy, race control never ends or contradicts what it holds beyond a lead', () => {
    fc.assert(
      fc.property(feed, (inputs) => {
        let held: string | null = null;
        fuseInputs(inputs, (input, _change, fusion) => {
          if (input.kind === 'track_status') {
            const code = String((input.status as { Status: unknown }).Status);
            if (TRACK_STATUS_STATES[code] !== undefined) held = code;
          }
          if (held === null) return;
          const deadline = fusion.nextDeadline();
          // A lead is never older than its grace time: the clock withdraws it at its deadline.
          if (deadline !== null) expect(deadline).toBeGreaterThan(input.at);
          const truth = TRACK_STATUS_STATES[held];
          const shown = fusion.state();
          if (deadline !== null || shown === 'checkered') return;
          if (truth === 'green') expect(['green', 'yellow']).toContain(shown);
          else expect(shown).toBe(truth);
          if (shown === 'yellow' && truth === 'green')
            expect(fusion.activeSectors().length).toBeGreaterThan(0);
          expect(fusion.safetyCar()).toBe(held === '4');
        });
      }),
    );
  });

  test('while TrackStatus holds anything but AllClear, the lights are never green', () => {
    fc.assert(
      fc.property(feed, (inputs) => {
        let held: string | null = null;
        fuseInputs(inputs, (input, _change, fusion) => {
          if (input.kind === 'track_status') {
            const code = String((input.status as { Status: unknown }).Status);
            if (TRACK_STATUS_STATES[code] !== undefined) held = code;
          }
          if (held !== null && held !== '1') expect(fusion.state()).not.toBe('green');
        });
      }),
    );
  });

  test('never throws on any input', () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), (inputs) => {
        const fusion = createFlagFusion();
        for (const input of inputs) expect(() => fusion.push(input as FusionInput)).not.toThrow();
      }),
    );
  });
});
