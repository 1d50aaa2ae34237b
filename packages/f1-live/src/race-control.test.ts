import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { feedUtcToOpenF1Date, toRaceControlMessage } from './race-control.js';

const DIR = fileURLToPath(new URL('../../data/race-control/', import.meta.url));

interface Fixture {
  session: { session_key: number; meeting_key: number };
  messages: Record<string, unknown>[];
  live_timing?: { race_control_stream?: { index: number; record: Record<string, unknown> }[] };
}

describe('toRaceControlMessage', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

  test.each(files)('%s: every live-timing record maps to the OpenF1 row of the fixture', (file) => {
    const fixture = JSON.parse(readFileSync(DIR + file, 'utf8')) as Fixture;
    const stream = fixture.live_timing?.race_control_stream ?? [];
    if (stream.length === 0) return;
    const keys = { sessionKey: fixture.session.session_key, meetingKey: fixture.session.meeting_key };
    const converted = stream.map(({ record }) => {
      const { qualifying_phase: _phase, ...row } = toRaceControlMessage(record, keys);
      return row;
    });
    expect(converted).toEqual(fixture.messages);
  });

  test('fields may be absent or odd', () => {
    expect(toRaceControlMessage({ Message: 'X', RacingNumber: '44', Sector: 3, Lap: '12' })).toEqual({
      date: null,
      session_key: null,
      meeting_key: null,
      driver_number: 44,
      lap_number: 12,
      category: null,
      flag: null,
      scope: null,
      sector: 3,
      message: 'X',
      qualifying_phase: null,
    });
    expect(toRaceControlMessage(null).message).toBeNull();
  });

  test('dates get the UTC zone OpenF1 writes', () => {
    expect(feedUtcToOpenF1Date('2026-03-15T07:04:00')).toBe('2026-03-15T07:04:00+00:00');
    expect(feedUtcToOpenF1Date('2026-03-15T07:04:00Z')).toBe('2026-03-15T07:04:00+00:00');
  });
});
