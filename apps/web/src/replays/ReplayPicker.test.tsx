import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { createTestQueryClient } from '../../test/render-app';
import { ReplayPicker, type StartedReplay } from './ReplayPicker';

const BUNDLED = [
  {
    source: 'bundled',
    id: '2021-saudi-arabia-race',
    year: 2021,
    meetingName: 'Saudi Arabian Grand Prix',
    sessionName: 'Race',
    sessionType: 'Race',
    dateStart: '2021-12-05T17:30:00.000Z',
    suggestedStartMinutes: 72,
    messages: 150,
    lengthMinutes: 258,
    timeline: {
      lengthMs: 258 * 60_000,
      periods: [
        { from: 0, to: 78 * 60_000, state: 'green' },
        { from: 78 * 60_000, to: 87 * 60_000, state: 'safety_car' },
        { from: 87 * 60_000, to: 96 * 60_000, state: 'red' },
        { from: 96 * 60_000, to: 250 * 60_000, state: 'green' },
        { from: 250 * 60_000, to: 258 * 60_000, state: 'checkered' },
      ],
      sectorMarks: [{ from: 77 * 60_000, to: 78 * 60_000, sectors: [12] }],
    },
  },
  {
    source: 'bundled',
    id: '2025-mexico-city-race',
    year: 2025,
    meetingName: 'Mexico City Grand Prix',
    sessionName: 'Race',
    sessionType: 'Race',
    dateStart: '2025-10-26T20:00:00.000Z',
    suggestedStartMinutes: 20,
    messages: 90,
    lengthMinutes: 142,
  },
];

function renderPicker() {
  const started: StartedReplay[] = [];
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <ReplayPicker onStarted={(replay) => started.push(replay)} />
    </QueryClientProvider>,
  );
  return started;
}

afterEach(() => vi.restoreAllMocks());

describe('replay picker', () => {
  test('lists the bundled recordings and starts the chosen one at the chosen speed and minute', async () => {
    const server = stubApi({
      'GET /api/replays': { body: { success: true, sessions: BUNDLED } },
      'POST /api/replays': { body: { success: true, sessionKey: 900_000_007 } },
    });
    const started = renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Watch a replay' }));
    const dialog = await screen.findByRole('dialog', { name: 'Watch a replay' });
    // The server's rule, said before the fan starts one on a second screen.
    expect(dialog).toHaveAccessibleDescription(
      /Your account runs up to 2 replays at once: starting another ends your oldest\./,
    );
    const recording = await within(dialog).findByRole('combobox', { name: 'Recording' });
    // Newest season first.
    expect(
      within(recording)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['2025 Mexico City Grand Prix – Race', '2021 Saudi Arabian Grand Prix – Race']);
    expect(within(dialog).getByRole('spinbutton', { name: 'Start at minute' })).toHaveValue(20);

    fireEvent.change(recording, { target: { value: 'bundled:2021-saudi-arabia-race' } });
    expect(within(dialog).getByRole('spinbutton', { name: 'Start at minute' })).toHaveValue(72);
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: /Speed/ }), { target: { value: '20' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Start at minute' }), {
      target: { value: '137' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start replay' }));

    await vi.waitFor(() => expect(started).toHaveLength(1));
    expect(server.calls.find((c) => c.route === 'POST /api/replays')?.body).toEqual({
      source: 'bundled',
      id: '2021-saudi-arabia-race',
      speed: 20,
      startMinutes: 137,
    });
    expect(started[0]).toEqual({
      sessionKey: 900_000_007,
      title: '2021 Saudi Arabian Grand Prix – Race',
      sessionName: 'Race',
      speed: 20,
      startMinutes: 137,
      source: 'bundled',
      id: '2021-saudi-arabia-race',
      timeline: BUNDLED[0]!.timeline,
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test("shows the chosen recording's flag timeline, and a period picked on it sets the start minute", async () => {
    stubApi({ 'GET /api/replays': { body: { success: true, sessions: BUNDLED } } });
    renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Watch a replay' }));
    const dialog = await screen.findByRole('dialog');
    const recording = await within(dialog).findByRole('combobox', { name: 'Recording' });
    // The 2025 recording comes first and has no timeline.
    expect(within(dialog).queryByRole('group', { name: /^Flags of/ })).not.toBeInTheDocument();
    fireEvent.change(recording, { target: { value: 'bundled:2021-saudi-arabia-race' } });
    const strip = within(dialog).getByRole('group', {
      name: 'Flags of 2021 Saudi Arabian Grand Prix – Race; choose where to start. Now at 1:12:00, Green.',
    });
    expect(strip).toHaveAccessibleDescription(
      'Green 0:00–1:18:00, Safety car 1:18:00–1:27:00, Red flag 1:27:00–1:36:00, Green 1:36:00–4:10:00, ' +
        'Chequered 4:10:00–4:18:00. Local yellows: Yellow in sector 12 at 1:17:00.',
    );
    expect(within(strip).getByTestId('timeline-position').style.left).toBe(`${(72 / 258) * 100}%`);
    fireEvent.click(within(strip).getByRole('button', { name: 'Go to Red flag 1:27:00–1:36:00' }));
    expect(within(dialog).getByRole('spinbutton', { name: 'Start at minute' })).toHaveValue(87);
  });

  test('a speed outside 1–20 is clamped before it is sent', async () => {
    const server = stubApi({
      'GET /api/replays': { body: { success: true, sessions: BUNDLED } },
      'POST /api/replays': { body: { success: true, sessionKey: 900_000_008 } },
    });
    renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Watch a replay' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('combobox', { name: 'Recording' });
    const speed = within(dialog).getByRole('spinbutton', { name: /Speed/ });
    fireEvent.change(speed, { target: { value: '99' } });
    fireEvent.blur(speed);
    expect(speed).toHaveValue(20);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start replay' }));
    await vi.waitFor(() => expect(server.calls.some((c) => c.route === 'POST /api/replays')).toBe(true));
    expect(server.calls.find((c) => c.route === 'POST /api/replays')?.body).toMatchObject({ speed: 20 });
  });

  test("shows the server's reason when a replay cannot start, and stays open", async () => {
    stubApi({
      'GET /api/replays': { body: { success: true, sessions: BUNDLED } },
      'POST /api/replays': {
        status: 429,
        body: {
          error:
            'This server is running as many replays as it can. One ends a minute after nobody watches it: please try again then.',
          code: 'rate_limited',
        },
      },
    });
    const started = renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Watch a replay' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('combobox', { name: 'Recording' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start replay' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not start the replay: This server is running as many replays as it can. One ends a minute after nobody watches it: please try again then.',
    );
    expect(started).toEqual([]);
  });

  test("adds a season's OpenF1 sessions to the list when online", async () => {
    // The year query goes to the same path, so this stub reads the query string.
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      const body = url.includes('year=')
        ? {
            success: true,
            sessions: [
              {
                source: 'openf1',
                id: '9999',
                year: 2024,
                meetingName: 'Italy',
                sessionName: 'Race',
                sessionType: 'Race',
                dateStart: '2024-09-01T13:00:00Z',
                suggestedStartMinutes: 0,
              },
            ],
          }
        : { success: true, sessions: BUNDLED };
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    });
    renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Watch a replay' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('combobox', { name: 'Recording' });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Season' }), { target: { value: '2024' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load sessions' }));
    expect(await within(dialog).findByText('1 sessions from 2024 added to the list.')).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: '2024 Italy – Race' })).toBeInTheDocument();
  });
});
