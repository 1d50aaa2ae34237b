import { describe, expect, test } from 'vitest';
import { LEAD_WITHDRAWN, type FusionInput } from './fusion.js';
import {
  formatStreamOffset,
  fuseInputs,
  readLiveTimingMessage,
  readLiveTimingStreams,
  readStreamOffset,
} from './live-timing.js';

describe('readStreamOffset', () => {
  test.each([
    ['00:12:25.247', 745_247],
    ['01:00:00', 3_600_000],
    ['00:00:01.5', 1_500],
  ])('%s is %d ms', (offset, ms) => expect(readStreamOffset(offset)).toBe(ms));

  test.each([['12:25'], [''], [42], [null]])('%s is not an offset', (offset) => {
    expect(readStreamOffset(offset)).toBeNull();
  });
});

describe('readLiveTimingMessage', () => {
  test('maps a live-timing record to the OpenF1 shape', () => {
    expect(
      readLiveTimingMessage({
        Utc: '2026-03-15T06:20:01',
        Lap: 1,
        Category: 'Flag',
        Flag: 'DOUBLE YELLOW',
        Scope: 'Sector',
        Sector: 7,
        Message: 'DOUBLE YELLOW IN TRACK SECTOR 7',
        RacingNumber: '44',
      }),
    ).toEqual({
      date: '2026-03-15T06:20:01+00:00',
      category: 'Flag',
      flag: 'DOUBLE YELLOW',
      scope: 'Sector',
      sector: 7,
      message: 'DOUBLE YELLOW IN TRACK SECTOR 7',
      lap_number: 1,
      driver_number: 44,
    });
  });

  test('keeps a zone, and reads missing or odd fields as null', () => {
    expect(readLiveTimingMessage({ Utc: '2026-03-15T06:20:01Z', RacingNumber: 'x', Sector: ' ' })).toEqual({
      date: '2026-03-15T06:20:01Z',
      category: null,
      flag: null,
      scope: null,
      sector: null,
      message: null,
      lap_number: null,
      driver_number: null,
    });
    expect(readLiveTimingMessage({}).date).toBeNull();
    expect(readLiveTimingMessage('x')).toEqual({});
  });
});

describe('readLiveTimingStreams', () => {
  test('merges the streams in offset order, session status then race control then TrackStatus on a tie', () => {
    const merged = readLiveTimingStreams({
      race_control_stream: [
        { stream_offset: '00:00:10.000', index: 0, record: { Utc: '2026-03-15T06:00:10', Message: 'A' } },
        { stream_offset: '00:00:20.000', index: 1, record: { Utc: '2026-03-15T06:00:20', Message: 'B' } },
        { stream_offset: '00:00:30.000', index: 2, record: { Message: 'no date' } },
      ],
      track_status_stream: [
        { stream_offset: '00:00:00.000', Status: '2', Message: 'Yellow' },
        { stream_offset: '00:00:20.000', Status: '1', Message: 'AllClear' },
      ],
      session_status_stream: [{ stream_offset: '00:00:20.000', Status: 'Started' }],
    });
    expect(merged.ok).toBe(true);
    if (!merged.ok) return;
    expect(merged.inputs.map((input) => [input.kind, input.at])).toEqual([
      ['track_status', 0],
      ['race_control', 10_000],
      ['session_status', 20_000],
      ['race_control', 20_000],
      ['track_status', 20_000],
      ['race_control', 30_000],
    ]);
    expect(merged.inputs[0]).toMatchObject({ date: '2026-03-15T06:00:00.000+00:00', offset: '00:00:00.000' });
  });

  test('without dated race-control lines a TrackStatus line has no date of its own', () => {
    const merged = readLiveTimingStreams({
      track_status_stream: [{ stream_offset: '00:00:01.000', Status: '1' }],
    });
    expect(merged.ok && merged.inputs[0]).not.toHaveProperty('date');
  });

  test.each([
    [undefined, 'no live_timing streams'],
    [{ notes: 'x' }, 'no live_timing streams'],
    [
      { race_control_stream: [], track_status_stream: 'x' },
      'live_timing.track_status_stream is not an array',
    ],
    [
      { race_control_stream: [{ index: 0, record: {} }] },
      'live_timing.race_control_stream[0] has no stream_offset',
    ],
    [{ session_status_stream: [null] }, 'live_timing.session_status_stream[0] has no stream_offset'],
  ])('%j is refused: %s', (liveTiming, error) => {
    expect(readLiveTimingStreams(liveTiming)).toEqual({ ok: false, error });
  });
});

describe('formatStreamOffset', () => {
  test.each([
    [745_247, '00:12:25.247'],
    [3_600_000, '01:00:00.000'],
    [36_000_000 + 61_001, '10:01:01.001'],
    [-5, '00:00:00.000'],
  ])('%d ms is %s', (ms, offset) => expect(formatStreamOffset(ms)).toBe(offset));

  test('reads back as the same milliseconds', () => {
    for (const ms of [0, 1, 999, 59_999, 3_599_999, 7_654_321]) {
      expect(readStreamOffset(formatStreamOffset(ms))).toBe(ms);
    }
  });
});

describe('fuseInputs', () => {
  const red = {
    date: '2025-07-06T14:00:10+00:00',
    category: 'Flag',
    flag: 'RED',
    scope: 'Track',
    message: 'RED FLAG',
  };
  const status = (code: string, at: number, extra: { offset?: string; date?: string } = {}): FusionInput => ({
    kind: 'track_status',
    at,
    status: { Status: code, Message: code === '1' ? 'AllClear' : 'Yellow' },
    ...extra,
  });

  test('withdraws an unconfirmed lead at its deadline, with the offset and date of that moment', () => {
    const inputs: FusionInput[] = [
      status('1', 0, { offset: '00:00:00.000', date: '2025-07-06T14:00:00.000+00:00' }),
      { kind: 'race_control', at: 10_000, offset: '00:00:10.000', message: red },
      status('2', 60_000, { offset: '00:01:00.000', date: '2025-07-06T14:01:00.000+00:00' }),
    ];
    const seen: string[] = [];
    const changes = fuseInputs(inputs, (input) => seen.push(input.kind));
    expect(seen).toEqual(['track_status', 'race_control', 'clock', 'track_status']);
    expect(changes.map((c) => [c.state, c.offset, c.date, c.cause.source])).toEqual([
      ['red', '00:00:10.000', '2025-07-06T14:00:10+00:00', 'race_control'],
      ['green', '00:00:15.000', '2025-07-06T14:00:15.000+00:00', 'track_status'],
      ['yellow', '00:01:00.000', '2025-07-06T14:01:00.000+00:00', 'track_status'],
    ]);
    expect(changes[1]?.cause.message).toBe(`AllClear (${LEAD_WITHDRAWN})`);
  });

  test('without offsets or readable TrackStatus dates the clock carries neither', () => {
    const changes = fuseInputs([
      status('1', 0, { date: 'not a date' }),
      { kind: 'race_control', at: 10_000, message: red },
      status('2', 60_000),
    ]);
    expect(changes[1]).toMatchObject({ state: 'green', at: 15_000 });
    expect(changes[1]).not.toHaveProperty('offset');
    expect(changes[1]?.date).toBe('1970-01-01T00:00:15.000+00:00');
  });
});
