import { FlagEventDataSchema, TRACK_STATUS_GRACE_MS, type FlagEvent } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { createFakeTimers } from '../../test/fake-timers.js';
import { createInProcessBus } from './bus.js';
import { SessionDeriver } from './deriver.js';

const SESSION = 9947;

function message(seconds: number, fields: Record<string, unknown>) {
  const date = new Date(Date.parse('2025-07-06T14:00:00Z') + seconds * 1000)
    .toISOString()
    .replace('.000Z', '+00:00');
  return { date, session_key: SESSION, category: 'Other', flag: null, scope: null, sector: null, ...fields };
}

const sc = (s: number) => message(s, { category: 'SafetyCar', message: 'SAFETY CAR DEPLOYED' });
const vsc = (s: number) => message(s, { category: 'SafetyCar', message: 'VIRTUAL SAFETY CAR DEPLOYED' });
const clear = (s: number) =>
  message(s, { category: 'Flag', flag: 'CLEAR', scope: 'Track', message: 'TRACK CLEAR' });
const sectorYellow = (s: number) =>
  message(s, {
    category: 'Flag',
    flag: 'YELLOW',
    scope: 'Sector',
    sector: 4,
    message: 'YELLOW IN TRACK SECTOR 4',
  });

function start(clock = { now: Date.parse('2025-07-06T15:00:00Z') }) {
  const bus = createInProcessBus();
  const events: FlagEvent[] = [];
  bus.subscribe(SESSION, (m) => {
    if (m.type === 'flag') events.push(m.event);
  });
  const deriver = new SessionDeriver(SESSION, bus, () => clock.now, 0);
  return { deriver, events };
}

describe('SessionDeriver (race control only)', () => {
  test('a safety car is a yellow flag event with safetyCar set, caused by race control', () => {
    const { deriver, events } = start();
    deriver.ingest([sc(10), vsc(20), clear(30)]);
    expect(
      events.map((e) => [e.data.state, e.data.safetyCar, e.data.cause.source, e.data.cause.message]),
    ).toEqual([
      ['yellow', true, 'race_control', 'SAFETY CAR DEPLOYED'],
      ['vsc', false, 'race_control', 'VIRTUAL SAFETY CAR DEPLOYED'],
      ['green', false, 'race_control', 'TRACK CLEAR'],
    ]);
    for (const event of events) expect(FlagEventDataSchema.parse(event.data)).toEqual(event.data);
  });

  test('a sector yellow is not a safety car', () => {
    const { deriver, events } = start();
    deriver.ingest([sectorYellow(10)]);
    expect(events.map((e) => [e.data.state, e.data.safetyCar, e.data.activeSectors])).toEqual([
      ['yellow', false, [4]],
    ]);
  });

  test('the snapshot after the history carries the safety car and the cause of the last change', () => {
    const { deriver, events } = start();
    deriver.applyHistory([sc(10)]);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      state: 'yellow',
      safetyCar: true,
      cause: { message: 'SAFETY CAR DEPLOYED', source: 'race_control' },
    });
  });

  test('a snapshot with no history says green, from race control', () => {
    const { deriver, events } = start();
    deriver.applyHistory([]);
    expect(events[0]?.data).toMatchObject({
      state: 'green',
      safetyCar: false,
      cause: { message: '', source: 'race_control' },
    });
  });
});

describe('SessionDeriver with two sources', () => {
  const brief = (events: FlagEvent[]) => events.map((e) => [e.data.state, e.data.cause.source]);

  test('a message both feeds bring is told once, whichever comes first, even with another date', () => {
    const clock = { now: Date.parse('2025-07-06T15:00:00Z') };
    const { deriver, events } = start(clock);
    deriver.applyHistory([]);
    deriver.ingest([sc(10)], 'f1-live-timing');
    clock.now += 3_000;
    // OpenF1's copy, stamped 1 s later by its own clock: the same message.
    deriver.ingest([sc(11)], 'openf1');
    deriver.ingest([clear(40)], 'openf1');
    clock.now += 2_000;
    deriver.ingest([clear(40)], 'f1-live-timing');
    expect(brief(events)).toEqual([
      ['green', 'race_control'],
      ['yellow', 'race_control'],
      ['green', 'race_control'],
    ]);
  });

  test('the same words again later from one feed are a new message (a second sector yellow)', () => {
    const clock = { now: Date.parse('2025-07-06T15:00:00Z') };
    const { deriver, events } = start(clock);
    deriver.applyHistory([]);
    const clearSector = (s: number) =>
      message(s, {
        category: 'Flag',
        flag: 'CLEAR',
        scope: 'Sector',
        sector: 4,
        message: 'CLEAR IN TRACK SECTOR 4',
      });
    deriver.ingest([sectorYellow(10), clearSector(20), sectorYellow(30)], 'f1-live-timing');
    deriver.ingest([sectorYellow(10), clearSector(20), sectorYellow(30)], 'openf1');
    expect(events.map((e) => e.data.state)).toEqual(['green', 'yellow', 'green', 'yellow']);
  });

  test("a feed's history after the other feed told the session repeats nothing and publishes once", () => {
    const clock = { now: Date.parse('2025-07-06T15:00:00Z') };
    const { deriver, events } = start(clock);
    deriver.applyHistory([sc(10)], 'f1-live-timing');
    clock.now += 10 * 60_000;
    // OpenF1's first answer, long after: the safety car again (paired) and a VSC F1 never brought.
    deriver.reconcile([sc(10), vsc(20)], 'openf1');
    expect(brief(events)).toEqual([
      ['yellow', 'race_control'],
      ['vsc', 'race_control'],
    ]);
    deriver.reconcile([sc(10), vsc(20)], 'openf1');
    expect(events).toHaveLength(2);
  });

  test('TrackStatus leads while the feed is there; when it is lost race control decides again', () => {
    const { deriver, events } = start();
    deriver.applyHistory([]);
    deriver.pushFeed({ kind: 'track_status', status: { Status: '2', Message: 'Yellow' } });
    deriver.pushFeed({ kind: 'track_status_lost' });
    expect(brief(events)).toEqual([
      ['green', 'race_control'],
      ['yellow', 'track_status'],
      ['green', 'race_control'],
    ]);
  });
});

describe('SessionDeriver: TrackStatus decides while F1 is healthy', () => {
  function startWithTimers() {
    const timers = createFakeTimers(Date.parse('2025-07-06T15:00:00Z'));
    const bus = createInProcessBus();
    const events: FlagEvent[] = [];
    bus.subscribe(SESSION, (m) => {
      if (m.type === 'flag') events.push(m.event);
    });
    const deriver = new SessionDeriver(SESSION, bus, timers.now, 0, null, timers);
    deriver.applyHistory([]);
    events.length = 0;
    return { deriver, events, timers };
  }
  const pitExitOpen = (s: number) =>
    message(s, { category: 'Flag', flag: 'GREEN', scope: 'Track', message: 'GREEN LIGHT - PIT EXIT OPEN' });

  test('a pit-exit GREEN during a VSC TrackStatus holds publishes nothing', async () => {
    const { deriver, events, timers } = startWithTimers();
    deriver.pushFeed({ kind: 'track_status', status: { Status: '1', Message: 'AllClear' } });
    deriver.pushFeed({ kind: 'track_status', status: { Status: '6', Message: 'VSCDeployed' } });
    deriver.ingest([vsc(10)], 'f1-live-timing');
    await timers.advance(14_000);
    deriver.ingest([pitExitOpen(24)], 'f1-live-timing');
    await timers.advance(60_000);
    expect(events.map((e) => e.data.state)).toEqual(['vsc']);
    deriver.pushFeed({ kind: 'track_status', status: { Status: '7', Message: 'VSCEnding' } });
    expect(events.map((e) => e.data.state)).toEqual(['vsc', 'vsc_ending']);
  });

  test('a red flag TrackStatus never confirms is withdrawn at its deadline, by the timer', async () => {
    const { deriver, events, timers } = startWithTimers();
    deriver.pushFeed({ kind: 'track_status', status: { Status: '1', Message: 'AllClear' } });
    deriver.ingest([message(10, { category: 'Flag', flag: 'RED', scope: 'Track', message: 'RED FLAG' })]);
    expect(events.map((e) => e.data.state)).toEqual(['red']);
    expect(timers.pending()).toEqual([TRACK_STATUS_GRACE_MS]);
    await timers.advance(TRACK_STATUS_GRACE_MS);
    expect(events.map((e) => [e.data.state, e.data.cause.source])).toEqual([
      ['red', 'race_control'],
      ['green', 'track_status'],
    ]);
    expect(timers.pending()).toEqual([]);
  });

  test('a confirmed lead leaves no timer behind, and dispose clears a pending one', async () => {
    const { deriver, events, timers } = startWithTimers();
    deriver.pushFeed({ kind: 'track_status', status: { Status: '1', Message: 'AllClear' } });
    deriver.ingest([sc(10)]);
    deriver.pushFeed({ kind: 'track_status', status: { Status: '4', Message: 'SCDeployed' } });
    expect(timers.pending()).toEqual([]);
    deriver.ingest([vsc(20)]);
    expect(timers.pending()).toHaveLength(1);
    deriver.dispose();
    expect(timers.pending()).toEqual([]);
    expect(events.map((e) => e.data.state)).toEqual(['yellow', 'vsc']);
  });
});
