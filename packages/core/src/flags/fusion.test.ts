import { describe, expect, test } from 'vitest';
import { fastestLap, isoAt, safetyCar, sectorFlag, trackFlag } from '../../test/builders.js';
import {
  createFlagFusion,
  SECTOR_SKEW_MS,
  TRACK_STATUS_GRACE_MS,
  LEAD_WITHDRAWN,
  TRACK_STATUS_LOST,
  type FlagFusion,
  type FusedLightChange,
  type FusionInput,
} from './fusion.js';

const STATUS_TEXT: Record<string, string> = {
  '1': 'AllClear',
  '2': 'Yellow',
  '4': 'SCDeployed',
  '5': 'Red',
  '6': 'VSCDeployed',
  '7': 'VSCEnding',
};

/** A race-control line arriving `seconds` after the base time (its date says the same). */
function rc(message: unknown, seconds: number): FusionInput {
  return { kind: 'race_control', at: seconds * 1000, message };
}

function ts(code: string, seconds: number): FusionInput {
  return { kind: 'track_status', at: seconds * 1000, status: { Status: code, Message: STATUS_TEXT[code] } };
}

function ss(status: string, seconds: number): FusionInput {
  return { kind: 'session_status', at: seconds * 1000, status: { Status: status } };
}

function run(inputs: FusionInput[], fusion: FlagFusion = createFlagFusion()): FusedLightChange[] {
  return inputs.map((input) => fusion.push(input)).filter((c): c is FusedLightChange => c !== null);
}

const brief = (changes: FusedLightChange[]) =>
  changes.map((c) => [c.state, c.safetyCar, c.cause.source, c.activeSectors] as const);

describe('fusion with race control only', () => {
  test('follows DESIGN §6 and marks a safety car', () => {
    const changes = run([
      rc(sectorFlag('YELLOW', 4, 1), 1),
      rc(trackFlag('CLEAR', 2), 2),
      rc(safetyCar('SAFETY CAR DEPLOYED', 3), 3),
      rc(safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 4), 4),
    ]);
    expect(brief(changes)).toEqual([
      ['yellow', false, 'race_control', [4]],
      ['green', false, 'race_control', []],
      ['yellow', true, 'race_control', []],
      ['vsc', false, 'race_control', []],
    ]);
    expect(changes[2]?.cause).toEqual({
      date: isoAt(3),
      message: 'SAFETY CAR DEPLOYED',
      source: 'race_control',
    });
  });

  test('a safety car over a sector yellow is no change, as with the race-control tracker', () => {
    const fusion = createFlagFusion();
    expect(
      run([rc(sectorFlag('YELLOW', 4, 1), 1), rc(safetyCar('SAFETY CAR DEPLOYED', 2), 2)], fusion),
    ).toHaveLength(1);
    expect(fusion.safetyCar()).toBe(true);
    expect(fusion.trackSource()).toBe('race_control');
  });

  test('an undated message is skipped whole', () => {
    const fusion = createFlagFusion();
    expect(fusion.push(rc({ ...trackFlag('RED'), date: undefined }, 1))).toBeNull();
    expect(fusion.state()).toBe('green');
  });

  test('starts from the given state', () => {
    const fusion = createFlagFusion({ initialState: 'red' });
    expect(fusion.state()).toBe('red');
    expect(fusion.push(rc(trackFlag('RED', 1), 1))).toBeNull();
  });
});

describe('fusion with TrackStatus', () => {
  test('a TrackStatus yellow with no race-control message turns the lights yellow (wet running)', () => {
    const changes = run([ts('1', 0), ts('2', 10), rc(trackFlag('GREEN', 20), 20), ts('1', 30)]);
    expect(brief(changes)).toEqual([
      ['yellow', false, 'track_status', []],
      ['green', false, 'track_status', []],
    ]);
    expect(changes[0]?.cause).toMatchObject({ message: 'Yellow', source: 'track_status', status: '2' });
  });

  test('a safety car from TrackStatus is yellow with safetyCar set, even over a yellow', () => {
    const changes = run([ts('1', 0), ts('2', 5), ts('4', 6), rc(safetyCar('SAFETY CAR DEPLOYED', 6), 6.1)]);
    expect(brief(changes)).toEqual([
      ['yellow', false, 'track_status', []],
      ['yellow', true, 'track_status', []],
    ]);
  });

  test('a red flag whose message comes first changes once, from race control', () => {
    const fusion = createFlagFusion();
    const changes = run(
      [ts('1', 0), rc(sectorFlag('DOUBLE YELLOW', 3, 9), 9), rc(trackFlag('RED', 10), 10), ts('5', 10.1)],
      fusion,
    );
    expect(brief(changes)).toEqual([
      ['yellow', false, 'race_control', [3]],
      ['red', false, 'race_control', []],
    ]);
    expect(fusion.trackSource()).toBe('track_status');
  });

  test('a VSC whose TrackStatus comes first changes once, from TrackStatus', () => {
    const changes = run([
      ts('1', 0),
      ts('6', 10),
      rc(safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 10), 10.02),
      ts('7', 50),
      rc(safetyCar('VIRTUAL SAFETY CAR ENDING', 50), 50.04),
      rc(trackFlag('CLEAR', 60), 60),
      ts('1', 60.03),
    ]);
    // TRACK CLEAR came 30 ms before TrackStatus 1: it ends nothing TrackStatus holds.
    expect(changes.map((c) => [c.state, c.cause.source])).toEqual([
      ['vsc', 'track_status'],
      ['vsc_ending', 'track_status'],
      ['green', 'track_status'],
    ]);
  });

  test('race control leads while TrackStatus has not caught up; the lead is withdrawn when it never does', () => {
    const fusion = createFlagFusion();
    const changes = run([ts('1', 0), rc(safetyCar('SAFETY CAR DEPLOYED', 10), 10), ts('2', 11)], fusion);
    expect(brief(changes)).toEqual([['yellow', true, 'race_control', []]]);
    expect(fusion.trackSource()).toBe('race_control');
    expect(fusion.nextDeadline()).toBe(10_000 + TRACK_STATUS_GRACE_MS);
    // Before the deadline the clock changes nothing.
    expect(fusion.push({ kind: 'clock', at: 10_000 + TRACK_STATUS_GRACE_MS - 1 })).toBeNull();
    // At the deadline TrackStatus (2, a yellow somewhere) decides again: no longer a safety car.
    const withdrawn = fusion.push({ kind: 'clock', at: 10_000 + TRACK_STATUS_GRACE_MS });
    expect(withdrawn).toMatchObject({ state: 'yellow', safetyCar: false });
    expect(withdrawn?.cause).toMatchObject({ source: 'track_status', status: '2' });
    expect(withdrawn?.cause.message).toContain(LEAD_WITHDRAWN);
    expect(fusion.trackSource()).toBe('track_status');
    expect(fusion.nextDeadline()).toBeNull();
    // TrackStatus showing the safety car later is followed as any change is.
    const late = fusion.push(ts('4', 30));
    expect([late?.state, late?.safetyCar, late?.cause.source]).toEqual(['yellow', true, 'track_status']);
  });

  test('a lead past its deadline is gone before the next line is applied', () => {
    const fusion = createFlagFusion();
    run([ts('1', 0), rc(trackFlag('RED', 10), 10)], fusion);
    expect(fusion.state()).toBe('red');
    // No clock came; a sector yellow 20 s later finds the red withdrawn (TrackStatus says 1).
    const change = fusion.push(rc(sectorFlag('YELLOW', 4, 30), 30));
    expect([change?.state, change?.activeSectors]).toEqual(['yellow', [4]]);
  });

  test('after the session is over race control no longer leads TrackStatus', () => {
    const fusion = createFlagFusion();
    run([ts('1', 0), rc(trackFlag('RED', 10), 10), ts('5', 10.1), ss('Finalised', 20)], fusion);
    expect(fusion.push(rc(trackFlag('CLEAR', 30), 30))).toBeNull();
    expect(fusion.state()).toBe('red');
    fusion.push(ts('1', 35));
    expect(fusion.push(rc(trackFlag('RED', 36), 36))).toBeNull();
    fusion.push(ss('Started', 40));
    expect(fusion.push(rc(trackFlag('RED', 50), 50))?.state).toBe('red');
  });

  test('a chequered flag outranks the TrackStatus yellows after it, until the next part starts', () => {
    const fusion = createFlagFusion();
    const changes = run(
      [
        ts('1', 0),
        rc(trackFlag('CHEQUERED', 10), 10),
        ts('2', 20),
        ts('1', 30),
        ts('2', 40),
        rc(trackFlag('GREEN', 50, 'GREEN LIGHT - PIT EXIT OPEN'), 50),
        ts('1', 60),
      ],
      fusion,
    );
    expect(changes.map((c) => [c.state, c.cause.source])).toEqual([
      ['checkered', 'race_control'],
      ['yellow', 'race_control'],
      ['green', 'track_status'],
    ]);
  });

  test('an AllClear clears the sectors announced before it but not one announced a moment ago', () => {
    const fusion = createFlagFusion();
    run(
      [ts('1', 0), rc(sectorFlag('YELLOW', 3, 10), 10), ts('2', 10.1), rc(sectorFlag('YELLOW', 8, 40), 40)],
      fusion,
    );
    expect(fusion.activeSectors()).toEqual([3, 8]);
    const change = fusion.push(ts('1', 40 + (SECTOR_SKEW_MS / 1000) * 0.5));
    expect(change).toBeNull();
    expect(fusion.activeSectors()).toEqual([8]);
    // The late message clearing sector 3 changes nothing; clearing 8 turns the lights green.
    expect(fusion.push(rc(sectorFlag('CLEAR', 3, 45), 45))).toBeNull();
    expect(fusion.push(rc(sectorFlag('CLEAR', 8, 46), 46))?.state).toBe('green');
  });

  test('a late sector clear after the AllClear changes nothing (the lights went green once)', () => {
    const changes = run([
      ts('1', 0),
      ts('2', 10),
      rc(sectorFlag('DOUBLE YELLOW', 3, 10), 10.01),
      ts('1', 40),
      rc(sectorFlag('CLEAR', 3, 187), 187),
    ]);
    expect(changes.map((c) => [c.state, c.cause.source])).toEqual([
      ['yellow', 'track_status'],
      ['green', 'track_status'],
    ]);
  });

  test('a red TrackStatus clears the sectors', () => {
    const fusion = createFlagFusion();
    run([ts('1', 0), rc(sectorFlag('YELLOW', 3, 10), 10), ts('5', 20)], fusion);
    expect(fusion.activeSectors()).toEqual([]);
    expect(fusion.state()).toBe('red');
  });

  test('repeated, unknown and malformed TrackStatus lines change nothing', () => {
    const fusion = createFlagFusion();
    expect(fusion.push(ts('2', 0))?.state).toBe('yellow');
    expect(fusion.push(ts('2', 1))).toBeNull();
    expect(fusion.push(ts('3', 2))).toBeNull();
    expect(fusion.push({ kind: 'track_status', at: 3, status: null })).toBeNull();
    expect(fusion.push({ kind: 'track_status', at: 4, status: { Status: 1 } })?.state).toBe('green');
    expect(fusion.state()).toBe('green');
  });

  test('a TrackStatus change carries its offset and date, or a date from its arrival time', () => {
    const fusion = createFlagFusion();
    const withDate = fusion.push({
      kind: 'track_status',
      at: 5,
      offset: '00:00:00.005',
      date: '2025-07-06T14:00:00.005+00:00',
      status: { Status: '5' },
    });
    expect(withDate).toMatchObject({ date: '2025-07-06T14:00:00.005+00:00', offset: '00:00:00.005', at: 5 });
    expect(withDate?.cause).toEqual({
      date: '2025-07-06T14:00:00.005+00:00',
      message: '',
      source: 'track_status',
      status: '5',
    });
    const fromAt = fusion.push(ts('1', Date.parse('2025-07-06T14:00:10Z') / 1000));
    expect(fromAt?.date).toBe('2025-07-06T14:00:10.000+00:00');
    expect(fromAt).not.toHaveProperty('offset');
  });

  test('a fastest lap is momentary and keeps the safety-car kind', () => {
    const fusion = createFlagFusion();
    run([ts('4', 0)], fusion);
    const change = fusion.push(rc(fastestLap(5), 5));
    expect([change?.state, change?.safetyCar]).toEqual(['fastest_lap', true]);
    expect(fusion.state()).toBe('yellow');
  });

  test('ignores inputs it does not know', () => {
    const fusion = createFlagFusion();
    expect(fusion.push(null as unknown as FusionInput)).toBeNull();
    expect(fusion.push({ kind: 'other', at: 1 } as unknown as FusionInput)).toBeNull();
    expect(fusion.push({ kind: 'session_status', at: 1, status: null })).toBeNull();
    expect(fusion.push({ kind: 'session_status', at: 1, status: { Status: 7 } })).toBeNull();
    expect(fusion.state()).toBe('green');
  });
});

describe('while TrackStatus is healthy it alone decides the track-wide state', () => {
  // The shape of an unseen practice session: a VSC that TrackStatus holds, the pit exit opening in
  // the middle of it (category Flag, flag GREEN, scope Track), and TrackStatus ending it a minute
  // later. The room must stay VSC until TrackStatus says VSCEnding.
  const practiceVsc = (): FusionInput[] => [
    ts('1', 0),
    ts('2', 100),
    ts('6', 106),
    rc(safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 106), 106.02),
    rc(trackFlag('GREEN', 120, 'GREEN LIGHT - PIT EXIT OPEN'), 120),
    rc(sectorFlag('CLEAR', 7, 150), 150),
    rc(safetyCar('VIRTUAL SAFETY CAR ENDING', 161), 161),
    ts('7', 161.05),
    rc(trackFlag('CLEAR', 173), 173),
    ts('1', 173.04),
  ];

  test('a pit-exit GREEN during a VSC that TrackStatus holds changes nothing', () => {
    const fusion = createFlagFusion();
    const changes = run(practiceVsc(), fusion);
    expect(
      changes.map((c) => [c.at / 1000, c.state, c.cause.source, c.cause.status ?? c.cause.message]),
    ).toEqual([
      [100, 'yellow', 'track_status', '2'],
      [106, 'vsc', 'track_status', '6'],
      [161, 'vsc_ending', 'race_control', 'VIRTUAL SAFETY CAR ENDING'],
      [173.04, 'green', 'track_status', '1'],
    ]);
  });

  test('the VSC holds from the pit-exit GREEN to VSCEnding at every moment', () => {
    const fusion = createFlagFusion();
    for (const input of practiceVsc()) {
      fusion.push(input);
      if (input.at >= 106_000 && input.at < 161_000) expect(fusion.state()).toBe('vsc');
    }
  });

  test('with race control only (F1 down) the pit-exit GREEN is no green either', () => {
    const fusion = createFlagFusion();
    const changes = run(
      practiceVsc().filter((input) => input.kind === 'race_control'),
      fusion,
    );
    expect(changes.map((c) => [c.state, c.cause.message])).toEqual([
      ['vsc', 'VIRTUAL SAFETY CAR DEPLOYED'],
      ['vsc_ending', 'VIRTUAL SAFETY CAR ENDING'],
      ['green', 'TRACK CLEAR'],
    ]);
  });

  test('after the feed is lost mid-VSC the pit-exit GREEN still does not end it', () => {
    const fusion = createFlagFusion();
    const inputs = practiceVsc();
    inputs.splice(4, 0, { kind: 'track_status_lost', at: 110_000 });
    const changes = run(inputs.slice(0, 6), fusion);
    expect(changes.at(-1)?.state).toBe('vsc');
    expect(fusion.state()).toBe('vsc');
  });

  test('a safety car announced under a red leads only until its deadline if TrackStatus keeps the red', () => {
    const fusion = createFlagFusion();
    run([ts('1', 0), ts('5', 10)], fusion);
    expect(fusion.push(rc(safetyCar('SAFETY CAR DEPLOYED', 20), 20))?.state).toBe('yellow');
    expect(fusion.push({ kind: 'clock', at: 20_000 + TRACK_STATUS_GRACE_MS })?.state).toBe('red');
  });

  test.each([
    ['RED FLAG', trackFlag('RED', 10), '5', 'red'],
    ['SAFETY CAR DEPLOYED', safetyCar('SAFETY CAR DEPLOYED', 10), '4', 'yellow'],
    ['VIRTUAL SAFETY CAR DEPLOYED', safetyCar('VIRTUAL SAFETY CAR DEPLOYED', 10), '6', 'vsc'],
  ])('%s may lead TrackStatus by a moment, and is told once', (_name, message, code, state) => {
    const fusion = createFlagFusion();
    const changes = run([ts('1', 0), rc(message, 10), ts(code, 10.3)], fusion);
    expect(changes.map((c) => [c.state, c.cause.source])).toEqual([[state, 'race_control']]);
    expect(fusion.nextDeadline()).toBeNull();
  });

  test.each([
    ['TRACK CLEAR', trackFlag('CLEAR', 20)],
    ['a GREEN flag', trackFlag('GREEN', 20, 'GREEN FLAG')],
    ['the pit exit opening', trackFlag('GREEN', 20, 'GREEN LIGHT - PIT EXIT OPEN')],
  ])('%s never ends a red that TrackStatus holds', (_name, message) => {
    const fusion = createFlagFusion();
    run([ts('1', 0), ts('5', 10)], fusion);
    expect(fusion.push(rc(message, 20))).toBeNull();
    expect(fusion.state()).toBe('red');
    expect(fusion.push({ kind: 'clock', at: 60_000 })).toBeNull();
    expect(fusion.state()).toBe('red');
    expect(fusion.push(ts('1', 61))?.state).toBe('green');
  });
});

describe('fusion when the TrackStatus feed is lost', () => {
  test('race control alone decides again: a yellow TrackStatus knew of no longer holds the lights', () => {
    const fusion = createFlagFusion();
    // TrackStatus shows a yellow that race control never announced, then the feed dies.
    const changes = run([ts('1', 0), ts('2', 10), { kind: 'track_status_lost', at: 20_000 }], fusion);
    expect(brief(changes)).toEqual([
      ['yellow', false, 'track_status', []],
      ['green', false, 'race_control', []],
    ]);
    expect(changes[1]?.cause.message).toBe(TRACK_STATUS_LOST);
    expect(fusion.trackSource()).toBe('race_control');
  });

  test('nothing changes when race control already tells the same, and TrackStatus takes over again', () => {
    const fusion = createFlagFusion();
    const changes = run(
      [
        ts('1', 0),
        rc(trackFlag('RED', 5), 5),
        ts('5', 5.2),
        { kind: 'track_status_lost', at: 30_000 },
        rc(trackFlag('CLEAR', 40), 40),
        ts('1', 41),
        ts('2', 50),
      ],
      fusion,
    );
    expect(brief(changes).map(([state, , source]) => [state, source])).toEqual([
      ['red', 'race_control'],
      ['green', 'race_control'],
      ['yellow', 'track_status'],
    ]);
  });

  test('a loss before any TrackStatus line changes nothing', () => {
    expect(run([rc(sectorFlag('YELLOW', 3, 1), 1), { kind: 'track_status_lost', at: 2_000 }])).toHaveLength(
      1,
    );
  });
});
