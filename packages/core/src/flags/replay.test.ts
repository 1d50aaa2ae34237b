import { describe, expect, test } from 'vitest';
import {
  listAgreementFixtures,
  listRaceControlFixtures,
  loadRaceControlFixture,
} from '../../test/fixtures.js';
import { combineAgreements, measureAgreement } from '../measure/agreement.js';
import { createFlagTracker, deriveLightChanges, readMessageDate } from './tracker.js';
import type { TrackState } from './types.js';

/** The derived state once every message dated up to `time` (UTC, the session's day) is in. */
function stateAt(name: string, time: string): { state: TrackState; sectors: number[] } {
  const { messages } = loadRaceControlFixture(name);
  const day = String((messages[0] as { date: string }).date).slice(0, 10);
  const limit = Date.parse(`${day}T${time}+00:00`);
  const tracker = createFlagTracker();
  for (const message of messages) {
    const date = readMessageDate(message);
    if (date !== null && date.ms <= limit) tracker.push(message);
  }
  return { state: tracker.state(), sectors: tracker.activeSectors() };
}

type Expectation = [time: string, state: TrackState];

// Hand-checked against the events listed in fixtures/race-control/README.md and DESIGN §6.
const NOTABLE: Record<string, Expectation[]> = {
  '2021-saudi-arabia-race': [
    ['16:50:00', 'green'],
    ['17:48:17', 'yellow'], // SAFETY CAR DEPLOYED
    ['17:57:00', 'red'],
    ['18:04:59', 'red'], // RACE WILL RESUME is only a note
    ['18:06:28', 'green'], // TRACK CLEAR
    ['18:16:27', 'green'], // "SAFETY CAR WILL ENTER PITS: STANDING START" is category Other
    ['18:20:30', 'red'],
    ['18:32:41', 'green'],
    ['18:55:17', 'vsc'],
    ['18:57:06', 'vsc_ending'],
    ['18:57:17', 'green'],
    ['19:05:10', 'vsc'],
    ['19:12:20', 'vsc_ending'],
    ['19:12:31', 'green'],
    ['19:39:57', 'checkered'],
  ],
  '2022-saudi-arabia-race': [
    ['17:28:33', 'vsc'],
    ['17:28:52', 'yellow'], // the VSC was upgraded to a safety car
    ['17:37:41', 'yellow'], // SAFETY CAR IN THIS LAP: still out
    ['17:39:40', 'green'],
    ['18:07:21', 'vsc'],
    ['18:12:24', 'vsc_ending'],
    ['18:12:37', 'green'],
    ['18:27:47', 'checkered'],
  ],
  '2020-italy-race': [
    ['13:41:36', 'yellow'],
    ['13:48:44', 'green'],
    ['13:50:27', 'yellow'],
    ['13:53:02', 'red'],
    ['14:14:01', 'green'],
    ['14:21:02', 'green'],
    ['15:00:34', 'checkered'],
  ],
  '2019-italy-qualifying': [
    ['13:00:00', 'green'],
    ['13:13:27', 'red'],
    ['13:16:15', 'green'],
    ['13:21:34', 'checkered'], // end of Q1
    ['13:28:00', 'green'], // Q2 pit exit open
    ['13:43:00', 'checkered'],
    ['13:56:25', 'red'],
    ['14:06:00', 'green'],
    ['14:13:35', 'checkered'],
  ],
  '2020-70th-anniversary-fp2': [
    ['15:23:47', 'vsc'],
    ['15:25:19', 'vsc_ending'],
    ['15:25:32', 'green'],
    ['15:27:54', 'red'],
    ['15:28:35', 'red'],
    ['15:34:41', 'green'],
  ],
  '2025-italy-fp1': [
    ['11:29:46', 'vsc'], // a VSC test before the session
    // The pit exit opens during the VSC test: not a track-wide green (decision 025).
    ['11:30:00', 'vsc'],
    ['11:30:41', 'vsc_ending'],
    ['11:30:53', 'green'],
    ['12:05:00', 'red'],
    ['12:11:29', 'green'],
    ['12:30:00', 'checkered'], // the chequered flag outranks the VSC deployed at 12:29:30
    ['12:37:49', 'vsc_ending'],
    ['12:38:02', 'green'],
    ['13:10:00', 'checkered'],
  ],
  '2025-miami-sprint': [
    ['15:55:01', 'green'], // FORMATION LAP ... BEHIND THE SAFETY CAR is a note
    ['16:04:10', 'red'],
    ['16:06:06', 'green'],
    ['16:54:48', 'yellow'],
    ['17:04:28', 'green'],
    ['17:04:42', 'checkered'],
    ['17:09:09', 'checkered'],
  ],
  '2025-britain-race': [
    ['14:05:48', 'vsc'],
    ['14:10:18', 'vsc_ending'],
    ['14:10:31', 'green'],
    ['14:29:14', 'yellow'],
    ['14:39:12', 'green'],
    ['14:41:15', 'yellow'],
    ['14:49:28', 'green'],
    ['14:49:47', 'green'], // "... NOTED - SAFETY CAR INFRINGEMENT" is category Other
    ['15:41:05', 'checkered'],
  ],
  '2021-abu-dhabi-race-excerpt': [
    ['14:21:54', 'yellow'],
    ['14:31:19', 'yellow'],
  ],
  '2022-france-race': [
    ['13:33:16', 'yellow'],
    ['13:39:03', 'green'],
    ['14:26:48', 'vsc'], // MultiViewer's category VirtualSafetyCar
    ['14:28:30', 'vsc_ending'],
    ['14:28:45', 'green'],
    ['14:33:41', 'checkered'],
  ],
  '2024-united-states-race': [
    ['19:08:06', 'yellow'],
    ['19:14:18', 'green'],
  ],
};

describe('replays of real sessions', () => {
  for (const [name, expectations] of Object.entries(NOTABLE)) {
    test.each(expectations)(`${name} at %s is %s`, (time, state) => {
      expect(stateAt(name, time).state).toBe(state);
    });
  }

  test('a red flag leaves no sector active (2020 Italy)', () => {
    expect(stateAt('2020-italy-race', '13:53:02').sectors).toEqual([]);
  });

  test.each(listRaceControlFixtures())('%s derives without error and never repeats a state', (name) => {
    const changes = deriveLightChanges(loadRaceControlFixture(name).messages);
    const lasting = changes.map((change) => change.state).filter((state) => state !== 'fastest_lap');
    lasting.forEach((state, index) => expect(state).not.toBe(index === 0 ? 'green' : lasting[index - 1]));
  });
});

describe("agreement with F1's TrackStatus feed", () => {
  const rows = listAgreementFixtures().map((name) => ({
    name,
    ...measureAgreement(loadRaceControlFixture(name)),
  }));

  test('covers the 28 complete sessions with a TrackStatus stream', () => {
    expect(rows).toHaveLength(28);
  });

  test('time-weighted agreement over the complete sessions is at least 98%', () => {
    expect(combineAgreements(rows).ratio).toBeGreaterThanOrEqual(0.98);
  });
});
