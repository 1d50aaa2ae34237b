import { describe, expect, test } from 'vitest';
import { listRaceControlFixtures, loadRaceControlFixture } from '../../test/fixtures.js';
import type { FusedLightChange, FusionInput } from './fusion.js';
import { fuseInputs, readLiveTimingStreams } from './live-timing.js';
import { createFlagTracker } from './tracker.js';

function inputsOf(name: string): FusionInput[] {
  const merged = readLiveTimingStreams(loadRaceControlFixture(name).live_timing);
  if (!merged.ok) throw new Error(merged.error);
  return merged.inputs;
}

/** The fused changes of a fixture's live-timing streams, as `--source f1` derives them. */
function replay(name: string, keep: (input: FusionInput) => boolean = () => true): FusedLightChange[] {
  return fuseInputs(inputsOf(name).filter(keep));
}

/** The changes between two stream offsets (seconds), as [seconds, state, safetyCar, source, cause]. */
function between(changes: FusedLightChange[], from: number, to: number) {
  return changes
    .filter((c) => c.at >= from * 1000 && c.at <= to * 1000)
    .map((c) => [c.at / 1000, c.state, c.safetyCar, c.cause.source, c.cause.status ?? c.cause.message]);
}

const withStreams = listRaceControlFixtures().filter((name) => {
  const merged = readLiveTimingStreams(loadRaceControlFixture(name).live_timing);
  return merged.ok && merged.inputs.length > 0;
});

// Hand-checked against the merged streams (offsets in seconds; fixtures/race-control/README.md).
describe('fused replays of real sessions', () => {
  test('2025 Bahrain: the safety car comes from TrackStatus, 10 ms before its message; its end too', () => {
    expect(between(replay('2025-bahrain-race'), 6470, 6950)).toEqual([
      [6475.16, 'yellow', true, 'track_status', '4'],
      // TRACK CLEAR came 27 ms before TrackStatus 1: race control never ends what TrackStatus holds.
      [6940.811, 'green', false, 'track_status', '1'],
    ]);
  });

  test('2025 Britain: the VSC, its ending and the green all come from TrackStatus', () => {
    expect(between(replay('2025-britain-race'), 3480, 3780)).toEqual([
      [3487.014, 'vsc', false, 'track_status', '6'],
      [3757.206, 'vsc_ending', false, 'track_status', '7'],
      [3770.16, 'green', false, 'track_status', '1'],
    ]);
  });

  test('2021 Italy FP2: the red flag message comes first and TrackStatus 5 after it changes nothing', () => {
    expect(between(replay('2021-italy-fp2'), 2500, 3250)).toEqual([
      [2506.725, 'yellow', false, 'track_status', '2'],
      [2510.184, 'red', false, 'race_control', 'RED FLAG'],
      [3147.879, 'green', false, 'track_status', '1'],
    ]);
  });

  test('2020 Belgium: TrackStatus yellows after the chequered flag leave it shown', () => {
    expect(between(replay('2020-belgium-race'), 7000, 8000)).toEqual([
      [7070.326, 'checkered', false, 'race_control', 'CHEQUERED FLAG'],
    ]);
  });

  test('2025 Mexico City: the AllClear ends a sector yellow whose clear message came 147 s late', () => {
    expect(between(replay('2025-mexico-city-race'), 3630, 3830)).toEqual([
      [3639.516, 'yellow', false, 'track_status', '2'],
      [3671.438, 'green', false, 'track_status', '1'],
    ]);
  });

  test('2019 Italy qualifying: each part ends chequered, post-flag yellows stay hidden, the next part starts green', () => {
    expect(between(replay('2019-italy-qualifying'), 0, 7000)).toEqual([
      [1695.011, 'yellow', false, 'track_status', '2'],
      [1699.082, 'green', false, 'track_status', '1'],
      [1706.102, 'red', false, 'race_control', 'RED FLAG'],
      [1873.91, 'green', false, 'track_status', '1'],
      [2193.27, 'checkered', false, 'race_control', 'CHEQUERED FLAG'], // end of Q1
      [2579.258, 'green', false, 'race_control', 'GREEN LIGHT - PIT EXIT OPEN'],
      [2863.159, 'yellow', false, 'track_status', '2'],
      [2871.848, 'green', false, 'track_status', '1'],
      [3479.353, 'checkered', false, 'race_control', 'CHEQUERED FLAG'], // the yellow at 3542.892 stays hidden
      [3959.298, 'green', false, 'race_control', 'GREEN LIGHT - PIT EXIT OPEN'],
      [4274.665, 'yellow', false, 'track_status', '2'],
      [4284.836, 'red', false, 'race_control', 'RED FLAG'],
      [4859.472, 'green', false, 'track_status', '1'],
      [5314.286, 'checkered', false, 'race_control', 'CHEQUERED FLAG'],
    ]);
  });

  test.each(withStreams)('%s: race control alone gives what the race-control tracker gives', (name) => {
    const tracker = createFlagTracker();
    const legacy = inputsOf(name)
      .filter((input) => input.kind === 'race_control')
      .map((input) => tracker.push(input.message))
      .filter((change) => change !== null);
    const fused = replay(name, (input) => input.kind === 'race_control').map(
      ({ date, state, activeSectors, cause }) => ({
        date,
        state,
        activeSectors,
        cause: { date: cause.date, message: cause.message },
      }),
    );
    expect(fused).toEqual(legacy);
  });

  test.each(withStreams)('%s: every fused change has an offset and none repeats the last light', (name) => {
    let previous = { state: 'green', safetyCar: false };
    for (const change of replay(name)) {
      expect(change.offset).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
      if (change.state === 'fastest_lap') continue;
      expect([change.state, change.safetyCar]).not.toEqual([previous.state, previous.safetyCar]);
      previous = change;
    }
  });
});
