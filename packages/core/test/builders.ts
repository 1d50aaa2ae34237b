import type { RaceControlMessage } from '../src/types/race-control.js';
import type { Race } from '../src/types/race.js';
import type { User } from '../src/types/user.js';

const BASE_MS = Date.parse('2025-07-06T14:00:00+00:00');

/** An ISO date `seconds` after a fixed base time, in OpenF1's `+00:00` form. */
export function isoAt(seconds: number): string {
  return new Date(BASE_MS + seconds * 1000).toISOString().replace('Z', '+00:00').replace('.000', '');
}

/** A race-control record with every OpenF1 field; overrides win. */
export function buildMessage(overrides: Partial<RaceControlMessage> = {}): RaceControlMessage {
  return {
    date: isoAt(0),
    session_key: 9947,
    meeting_key: 1277,
    driver_number: null,
    lap_number: 1,
    qualifying_phase: null,
    category: 'Other',
    flag: null,
    scope: null,
    sector: null,
    message: 'RISK OF RAIN FOR F1 RACE IS 0%',
    ...overrides,
  };
}

export function trackFlag(flag: string, seconds = 0, message?: string): RaceControlMessage {
  const texts: Record<string, string> = {
    RED: 'RED FLAG',
    GREEN: 'GREEN LIGHT - PIT EXIT OPEN',
    CLEAR: 'TRACK CLEAR',
    CHEQUERED: 'CHEQUERED FLAG',
  };
  return buildMessage({
    date: isoAt(seconds),
    category: 'Flag',
    flag,
    scope: 'Track',
    message: message ?? texts[flag] ?? flag,
  });
}

export function sectorFlag(flag: string, sector: number, seconds = 0): RaceControlMessage {
  return buildMessage({
    date: isoAt(seconds),
    category: 'Flag',
    flag,
    scope: 'Sector',
    sector,
    message: `${flag} IN TRACK SECTOR ${sector}`,
  });
}

export function safetyCar(message: string, seconds = 0, category = 'SafetyCar'): RaceControlMessage {
  return buildMessage({ date: isoAt(seconds), category, message });
}

export function otherMessage(message: string, seconds = 0): RaceControlMessage {
  return buildMessage({ date: isoAt(seconds), category: 'Other', message });
}

export function fastestLap(seconds = 0): RaceControlMessage {
  return buildMessage({
    date: isoAt(seconds),
    category: 'Other',
    message: 'FASTEST LAP 1:27.097 CAR 81 (PIA)',
  });
}

/** A user row as the API returns it. */
export function buildUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    email: 'fan@example.com',
    plan: 'trial',
    isAdmin: false,
    createdAt: '2025-07-01T12:00:00.000Z',
    lastLogin: null,
    trialExpires: null,
    ...overrides,
  };
}

/** A Jolpica race; a standard weekend unless overridden. */
export function buildRace(overrides: Partial<Race> = {}): Race {
  return {
    season: '2025',
    round: '12',
    raceName: 'British Grand Prix',
    Circuit: {
      circuitId: 'silverstone',
      circuitName: 'Silverstone Circuit',
      Location: { lat: '52.0786', long: '-1.01694', locality: 'Silverstone', country: 'UK' },
    },
    date: '2025-07-06',
    time: '14:00:00Z',
    FirstPractice: { date: '2025-07-04', time: '11:30:00Z' },
    SecondPractice: { date: '2025-07-04', time: '15:00:00Z' },
    ThirdPractice: { date: '2025-07-05', time: '10:30:00Z' },
    Qualifying: { date: '2025-07-05', time: '14:00:00Z' },
    ...overrides,
  };
}
