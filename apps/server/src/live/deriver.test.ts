import { FlagEventDataSchema, type FlagEvent } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
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

function start() {
  const bus = createInProcessBus();
  const events: FlagEvent[] = [];
  bus.subscribe(SESSION, (m) => {
    if (m.type === 'flag') events.push(m.event);
  });
  const deriver = new SessionDeriver(SESSION, bus, () => Date.parse('2025-07-06T15:00:00Z'), 0);
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
