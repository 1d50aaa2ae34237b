import { describe, expect, test } from 'vitest';
import { FlagEventDataSchema } from './live.js';

const older = {
  sessionKey: 9947,
  state: 'yellow',
  activeSectors: [],
  cause: { date: '2025-07-06T14:29:14+00:00', message: 'SAFETY CAR DEPLOYED' },
  emittedAt: '2025-07-06T14:29:14.100Z',
};

describe('FlagEventDataSchema', () => {
  test('an event from before safetyCar and cause.source still parses', () => {
    expect(FlagEventDataSchema.parse(older)).toEqual(older);
  });

  test('carries safetyCar and the cause source and status', () => {
    const event = {
      ...older,
      safetyCar: true,
      cause: { date: older.cause.date, message: 'SCDeployed', source: 'track_status', status: '4' },
    };
    expect(FlagEventDataSchema.parse(event)).toEqual(event);
  });

  test('refuses a source it does not know', () => {
    expect(
      FlagEventDataSchema.safeParse({ ...older, cause: { ...older.cause, source: 'radio' } }).success,
    ).toBe(false);
  });
});
