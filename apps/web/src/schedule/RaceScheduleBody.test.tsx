import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { createTestQueryClient } from '../../test/render-app';
import { RaceScheduleBody } from './RaceScheduleBody';
import { shouldRetrySchedule, ScheduleTimeoutError } from './schedule-api';

const circuit = (name: string, locality: string, country: string) => ({
  circuitId: locality.toLowerCase(),
  circuitName: name,
  Location: { lat: '0', long: '0', locality, country },
});

const RACES = [
  {
    season: '2026',
    round: '1',
    raceName: 'Australian Grand Prix',
    Circuit: circuit('Albert Park Grand Prix Circuit', 'Melbourne', 'Australia'),
    date: '2026-03-08',
    time: '04:00:00Z',
    FirstPractice: { date: '2026-03-06', time: '01:30:00Z' },
    SecondPractice: { date: '2026-03-06', time: '05:00:00Z' },
    ThirdPractice: { date: '2026-03-07', time: '01:30:00Z' },
    Qualifying: { date: '2026-03-07', time: '05:00:00Z' },
  },
  {
    season: '2026',
    round: '2',
    raceName: 'Chinese Grand Prix',
    Circuit: circuit('Shanghai International Circuit', 'Shanghai', 'China'),
    date: '2026-03-15',
    time: '07:00:00Z',
    FirstPractice: { date: '2026-03-13', time: '03:30:00Z' },
    SprintQualifying: { date: '2026-03-13', time: '07:30:00Z' },
    Sprint: { date: '2026-03-14', time: '03:00:00Z' },
    Qualifying: { date: '2026-03-14', time: '07:00:00Z' },
  },
];

function renderSchedule(now = Date.parse('2026-03-10T00:00:00Z')) {
  return render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RaceScheduleBody now={() => now} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('Formula 1 Calendar', () => {
  test('lists each round with its race, circuit and sessions in the viewer time zone, coloured by type', async () => {
    stubApi({
      'GET /api/f1/schedule': { body: { success: true, season: '2026', races: RACES, fallback: false } },
    });
    renderSchedule();
    const china = await screen.findByRole('listitem', { name: 'Chinese Grand Prix' });
    expect(china).toHaveTextContent('Round 2');
    expect(china).toHaveTextContent('Shanghai International Circuit, Shanghai, China');
    const sessions = within(china).getAllByRole('listitem');
    expect(sessions.map((s) => s.getAttribute('data-session-kind'))).toEqual([
      'practice',
      'sprint-qualifying',
      'sprint',
      'qualifying',
      'race',
    ]);
    expect(sessions.map((s) => s.firstChild?.textContent)).toEqual([
      'Practice 1',
      'Sprint Qualifying',
      'Sprint',
      'Qualifying',
      'Race',
    ]);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const expected = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    }).format(Date.parse('2026-03-15T07:00:00Z'));
    expect(sessions[4]).toHaveTextContent(expected);
    expect(sessions[4]?.querySelector('time')).toHaveAttribute('dateTime', '2026-03-15T07:00:00.000Z');
    // Practice blue, sprint qualifying pink, sprint orange, qualifying purple, race green (SPEC §9).
    expect(sessions.map((s) => s.style.borderColor)).toEqual([
      'rgb(77, 163, 255)',
      'rgb(255, 95, 162)',
      'var(--color-flag-vsc)',
      'var(--color-flag-fastest-lap)',
      'var(--color-flag-green)',
    ]);
    expect(screen.queryByText('Using fallback data')).not.toBeInTheDocument();
  });

  test('highlights the next race', async () => {
    stubApi({
      'GET /api/f1/schedule': { body: { success: true, season: '2026', races: RACES, fallback: false } },
    });
    renderSchedule();
    const china = await screen.findByRole('listitem', { name: 'Chinese Grand Prix' });
    expect(china).toHaveAttribute('data-next-race', 'true');
    expect(within(china).getByText('Next race')).toBeInTheDocument();
    const australia = screen.getByRole('listitem', { name: 'Australian Grand Prix' });
    expect(australia).not.toHaveAttribute('data-next-race');
  });

  test("says 'Using fallback data' when the server serves its bundled calendar", async () => {
    stubApi({
      'GET /api/f1/schedule': {
        body: { success: true, season: '2026', races: RACES, fallback: true, message: 'Using fallback data' },
      },
    });
    renderSchedule();
    expect(await screen.findByText('Using fallback data')).toBeInTheDocument();
  });

  test("says 'No race schedule available' for an empty season", async () => {
    stubApi({
      'GET /api/f1/schedule': { body: { success: true, season: '2026', races: [], fallback: false } },
    });
    renderSchedule();
    expect(await screen.findByText('No race schedule available')).toBeInTheDocument();
  });

  test("says 'Failed to load race schedule' with the detail in red", async () => {
    stubApi({ 'GET /api/f1/schedule': { status: 503, body: { error: 'Schedule service unavailable' } } });
    renderSchedule();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load race schedule');
    const detail = within(alert).getByText('Schedule service unavailable');
    expect(detail).toHaveClass('text-danger');
  });

  test('retries up to 3 times, on time-outs only (SPEC §7)', () => {
    const timeout = new ScheduleTimeoutError('slow');
    expect([0, 1, 2, 3].map((n) => shouldRetrySchedule(n, timeout))).toEqual([true, true, true, false]);
    expect(shouldRetrySchedule(0, new Error('502'))).toBe(false);
  });
});
