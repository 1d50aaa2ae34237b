import { LIVE_STREAM_HEARTBEAT_MS, LIVE_STREAM_SILENCE_MS } from '@flaglight/contract/limits';
import { POLL_INTERVAL_MS } from '@flaglight/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { companion } from '../../test/companions';
import { FakeEventSource } from '../../test/fake-event-source';
import { stubApi } from '../../test/fetch-stub';
import { createTestQueryClient } from '../../test/render-app';
import { buildUser } from '../../test/users';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import { clearCompanionDevices, storeCompanionDevices } from '../companion/companion-store';
import type { DrivenProvider, LightsApi } from '../lights/lights-context';
import { LightsContext } from '../lights/lights-context';
import { updateLocalSettings } from '../settings/local-settings';
import { toastStore } from '../toasts/toast';
import { setFlagAccent } from '../ui/flag-accent';
import { setFlagTitleText } from '../ui/use-document-title';
import { FEED_HEALTH_REFRESH_MS } from './FeedHealth';
import { STREAM_RETRY_MAX_MS } from './live-feed';
import { LiveProvider } from './LiveProvider';
import { autoConnectRetryDelay, CURRENT_SESSION_REFRESH_MS, RaceControlBody } from './RaceControlBody';
import { RECONNECTED_NOTICE_MS } from './use-live-connection';

const USER = buildUser({ email: 'race.fan@example.com' });
const NOW = new Date('2026-03-08T04:10:00Z');
const LIVE = {
  success: true,
  live: true,
  data: {
    name: 'Race',
    date_start: '2026-03-08T04:00:00Z',
    date_end: '2026-03-08T06:00:00Z',
    type: 'Race',
    race_name: 'Australian Grand Prix',
    circuit_name: 'Albert Park Grand Prix Circuit',
  },
};
const UPCOMING = {
  success: true,
  live: false,
  data: {
    name: 'Chinese Grand Prix',
    slug: 'chinese-grand-prix',
    round: 2,
    location: 'Shanghai, China',
    latitude: 31.3,
    longitude: 121.2,
    sessions: { fp1: '2026-03-13T03:30:00.000Z', gp: '2026-03-15T07:00:00.000Z' },
  },
};

function recordingLights(drivenProvider: DrivenProvider | null = 'lifx') {
  const played: { flag: string; atEpochMs: number | undefined }[] = [];
  const tested: string[] = [];
  let cancelled = 0;
  const api: LightsApi = {
    drivenProvider,
    restoring: false,
    playFlag(flag, options) {
      played.push({ flag, atEpochMs: options?.atEpochMs });
      return drivenProvider !== null;
    },
    playTest(flag) {
      tested.push(flag);
      return drivenProvider !== null;
    },
    cancelPending() {
      cancelled += 1;
    },
    followSession() {},
  };
  return { api, played, tested, cancelled: () => cancelled };
}

function stubServer(current: unknown = LIVE, overrides: Parameters<typeof stubApi>[0] = {}) {
  let tickets = 0;
  return stubApi({
    'GET /api/f1/current': { body: current },
    'GET /api/f1/schedule': { body: { success: true, season: '2026', races: [], fallback: false } },
    'GET /api/live/state': {
      body: { success: true, sessionKey: 9693, id: null, flag: null, upstream: null },
    },
    'GET /api/sessions/centralized-status': {
      body: { success: true, centralizedPollingEnabled: true, isPollingActive: true },
    },
    'POST /api/live/ticket': () => ({ body: { success: true, ticket: `ticket-${++tickets}` } }),
    'POST /api/sessions/track': { body: { success: true, sessionId: 'tracked-1' } },
    'POST /api/sessions/end': { body: { success: true, emailSent: true } },
    ...overrides,
  });
}

function tree(lights: LightsApi, user = USER) {
  const auth = { status: 'authenticated', isAuthenticated: true, user, token: 't' } as AuthContextValue;
  return (
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthContext.Provider value={auth}>
        <LightsContext.Provider value={lights}>
          <MemoryRouter>
            <LiveProvider>
              <RaceControlBody />
            </LiveProvider>
          </MemoryRouter>
        </LightsContext.Provider>
      </AuthContext.Provider>
    </QueryClientProvider>
  );
}

function renderBody(lights: LightsApi) {
  return render(tree(lights));
}

const tick = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));
/** Time passes on a quiet race: the server's stream beats as it does, every LIVE_STREAM_HEARTBEAT_MS. */
async function tickBeating(ms: number) {
  for (let left = ms; left > 0; left -= LIVE_STREAM_HEARTBEAT_MS) {
    await tick(Math.min(left, LIVE_STREAM_HEARTBEAT_MS));
    FakeEventSource.latest().emit('heartbeat', {});
  }
}
const flagStatus = () => screen.getByRole('status', { name: 'Current flag' });
const connection = () => screen.getByRole('status', { name: 'Connection' });

function flagEvent(id: number, state: string, message: string, activeSectors: number[] = []) {
  FakeEventSource.latest().emit(
    'flag',
    {
      sessionKey: 9693,
      state,
      activeSectors,
      cause: { date: NOW.toISOString(), message },
      emittedAt: NOW.toISOString(),
    },
    id,
  );
}

beforeEach(() => {
  vi.useFakeTimers({
    now: NOW,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  FakeEventSource.reset();
  vi.stubGlobal('EventSource', FakeEventSource);
  toastStore.clear();
  setFlagTitleText(null);
});
afterEach(() => {
  act(() => setFlagAccent('green'));
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Renders with the live session; auto-connect (on by default) connects once the lights are ready. */
async function connectedToLive(delaySeconds = 5, overrides: Parameters<typeof stubApi>[0] = {}) {
  updateLocalSettings(USER.email, { delaySeconds, delayEnabled: true });
  const server = stubServer(LIVE, overrides);
  const lights = recordingLights();
  renderBody(lights.api);
  await tick();
  await tick();
  FakeEventSource.latest().open();
  await tick();
  return { server, lights };
}

describe('Race Control: setup', () => {
  test("with the on-screen light unticked and no provider, Connect reads 'Setup Required', is disabled, and points to Settings", async () => {
    updateLocalSettings(USER.email, { screenLight: false });
    stubServer();
    renderBody(recordingLights(null).api);
    await tick();
    const button = screen.getByRole('button', { name: 'Setup Required' });
    expect(button).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Go to Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByText(/Use this screen as a light/)).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  test('an ended trial does not auto-connect (the Trial Expired dialog explains it; the stream would refuse)', async () => {
    stubServer();
    render(
      tree(recordingLights(null).api, { ...USER, plan: 'trial', trialExpires: '2020-01-01T00:00:00.000Z' }),
    );
    await tick();
    await tick();
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Connect' })).toBeEnabled();
  });

  test('with no smart lights the on-screen light is enough: auto-connect follows the live race on screen', async () => {
    stubServer();
    renderBody(recordingLights(null).api);
    await tick();
    await tick();
    expect(screen.queryByRole('button', { name: 'Setup Required' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  test('with no browser lights but a companion online (it drives them itself), the page may still connect', async () => {
    storeCompanionDevices(USER.email, [companion()]);
    try {
      stubServer();
      renderBody(recordingLights(null).api);
      await tick();
      expect(screen.queryByRole('button', { name: 'Setup Required' })).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Go to Settings' })).not.toBeInTheDocument();
      // Auto-connect (on by default) follows the live session on screen.
      expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    } finally {
      clearCompanionDevices();
    }
  });

  test('with lights ready but no live session, Connect waits and a replay is offered', async () => {
    stubServer(UPCOMING);
    renderBody(recordingLights().api);
    await tick();
    expect(screen.getByRole('button', { name: 'Connect' })).toBeDisabled();
    expect(screen.getByText('Chinese Grand Prix')).toBeInTheDocument();
    expect(screen.getByText(/No session is live right now/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Watch a replay' })).toBeEnabled();
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});

describe('Race Control: test flags', () => {
  test('a test the server refuses for the companions (429) says so, and what played in this browser', async () => {
    storeCompanionDevices(USER.email, [companion()]);
    try {
      stubServer(UPCOMING, {
        'POST /api/devices/test': {
          status: 429,
          body: { error: 'Rate limit exceeded, retry in 1 minute', code: 'rate_limited' },
        },
      });
      renderBody(recordingLights().api);
      await tick();
      fireEvent.click(screen.getByRole('button', { name: 'Red flag' }));
      await tick();
      const alert = screen.getByRole('alert');
      expect(alert).toHaveTextContent(
        "Your companion did not play Red flag: more than 20 tests in a minute. Try again in a minute. This browser's lights played it.",
      );
      expect(screen.queryByText(/^Sent Red flag/)).not.toBeInTheDocument();
    } finally {
      clearCompanionDevices();
    }
  });

  test('a test the companions take is reported as sent', async () => {
    storeCompanionDevices(USER.email, [companion()]);
    try {
      stubServer(UPCOMING, { 'POST /api/devices/test': { body: { success: true, devices: 1 } } });
      renderBody(recordingLights(null).api);
      await tick();
      fireEvent.click(screen.getByRole('button', { name: 'Yellow flag' }));
      await tick();
      expect(screen.getByText('Sent Yellow flag to your lights.')).toBeInTheDocument();
    } finally {
      clearCompanionDevices();
    }
  });

  test('each of the eight flags plays at once on the lights', async () => {
    stubServer(UPCOMING);
    const lights = recordingLights();
    renderBody(lights.api);
    await tick();
    for (const name of [
      'Green flag',
      'Red flag',
      'Yellow flag',
      'Chequered flag',
      'Safety car',
      'Virtual safety car',
      'VSC ending',
      'Fastest lap',
    ]) {
      fireEvent.click(screen.getByRole('button', { name }));
    }
    // Each as a test: the lights go back to the race's flag after it (never a race flag of their own).
    expect(lights.tested).toEqual([
      'green',
      'red',
      'yellow',
      'checkered',
      'safety',
      'vsc',
      'vsc_ending',
      'fastest_lap',
    ]);
    expect(lights.played).toEqual([]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test("without lights a test flag raises SPEC §8's alert pointing to Settings and Light Control", async () => {
    stubServer(UPCOMING);
    renderBody(recordingLights(null).api);
    await tick();
    fireEvent.click(screen.getByRole('button', { name: 'Red flag' }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('not connected or no devices selected');
    expect(alert).toHaveTextContent(/Go to Settings .* Light Control/);
    expect(within(alert).getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/settings');
  });
});

describe('Race Control: live connection', () => {
  test('connects: green at once, tracking starts, and the title, accent and status follow', async () => {
    const { server, lights } = await connectedToLive();
    expect(lights.played[0]).toEqual({ flag: 'green', atEpochMs: undefined });
    expect(connection()).toHaveTextContent('Connected · Live');
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeEnabled();
    expect(flagStatus()).toHaveTextContent('Green flag');
    const track = server.calls.find((c) => c.route === 'POST /api/sessions/track');
    expect(track?.body).toEqual({
      sessionData: expect.objectContaining({
        session_key: 9693,
        session_name: 'Race',
        race_name: 'Australian Grand Prix',
        circuit_name: 'Albert Park Grand Prix Circuit',
      }),
    });
    expect(document.title).toBe('Green flag · Flaglight');
  });

  test('a change waits for the broadcast delay on the lights and the panel alike, saying "in N s"', async () => {
    const { lights } = await connectedToLive(5);
    flagEvent(11, 'yellow', 'DOUBLE YELLOW IN TRACK SECTOR 7', [7]);
    expect(lights.played.at(-1)).toEqual({ flag: 'yellow', atEpochMs: NOW.getTime() + 5000 });
    await tick();
    expect(flagStatus()).toHaveTextContent('Green flag');
    expect(screen.getByTestId('pending-flag')).toHaveTextContent('Next: Yellow flag in 5 s');
    await tick(2000);
    expect(screen.getByTestId('pending-flag')).toHaveTextContent('in 3 s');
    await tick(2999);
    expect(flagStatus()).toHaveTextContent('Green flag');
    await tick(1);
    expect(flagStatus()).toHaveTextContent('Yellow flag');
    expect(flagStatus()).toHaveTextContent('Sector 7');
    expect(flagStatus()).toHaveTextContent('DOUBLE YELLOW IN TRACK SECTOR 7');
    expect(screen.queryByTestId('pending-flag')).not.toBeInTheDocument();
    expect(document.title).toBe('Yellow flag · Flaglight');
    expect(document.documentElement.dataset.flag).toBe('yellow');
  });

  test('with the delay switched off a change shows at once', async () => {
    updateLocalSettings(USER.email, { delayEnabled: false });
    stubServer();
    const lights = recordingLights();
    renderBody(lights.api);
    await tick();
    await tick();
    FakeEventSource.latest().open();
    flagEvent(12, 'red', 'RED FLAG');
    await tick();
    expect(lights.played.at(-1)).toEqual({ flag: 'red', atEpochMs: NOW.getTime() });
    expect(flagStatus()).toHaveTextContent('Red flag');
  });

  test('a safety car (sent as yellow) shows and plays as the safety car', async () => {
    const { lights } = await connectedToLive(0);
    flagEvent(13, 'yellow', 'SAFETY CAR DEPLOYED');
    await tick();
    expect(lights.played.at(-1)?.flag).toBe('safety');
    expect(flagStatus()).toHaveTextContent('Safety car');
    expect(screen.getByRole('list', { name: 'Recent flags' })).toHaveTextContent('SAFETY CAR DEPLOYED');
  });

  test('disconnect closes the stream, ends tracking, resets to green and drops pending changes', async () => {
    const { server, lights } = await connectedToLive(10);
    flagEvent(14, 'red', 'RED FLAG');
    await tick();
    const stream = FakeEventSource.latest();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await tick();
    expect(stream.closed).toBe(true);
    expect(lights.cancelled()).toBeGreaterThanOrEqual(1);
    expect(server.calls.filter((c) => c.route === 'POST /api/sessions/end').map((c) => c.body)).toEqual([
      { sessionId: 'tracked-1' },
    ]);
    expect(connection()).toHaveTextContent('Disconnected');
    await tick(10_000);
    expect(flagStatus()).toHaveTextContent('Green flag');
    expect(screen.queryByTestId('pending-flag')).not.toBeInTheDocument();
    // The flag leaves the tab title: the screen's own title (none in this test) is back.
    expect(document.title).toBe('Flaglight');
    // Connect again by hand: auto-connect does not fight a disconnect.
    expect(FakeEventSource.instances).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await tick();
    await tick();
    expect(FakeEventSource.instances).toHaveLength(2);
  });

  test("a race's chequered flag ends the tracked session once", async () => {
    const { server } = await connectedToLive(0);
    flagEvent(20, 'checkered', 'CHEQUERED FLAG');
    await tick();
    expect(flagStatus()).toHaveTextContent('Chequered flag');
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await tick();
    expect(server.calls.filter((c) => c.route === 'POST /api/sessions/end')).toHaveLength(1);
  });

  test('a dropped stream reconnects with a fresh ticket and the last event id, missing nothing', async () => {
    const { lights } = await connectedToLive(0);
    flagEvent(30, 'yellow', 'YELLOW IN TRACK SECTOR 3', [3]);
    await tick();
    FakeEventSource.latest().fail();
    await tick(1000);
    await tick();
    const again = FakeEventSource.latest();
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(again.params.get('ticket')).toBe('ticket-2');
    expect(again.params.get('lastEventId')).toBe('30');
    again.open();
    flagEvent(31, 'red', 'RED FLAG');
    await tick();
    expect(flagStatus()).toHaveTextContent('Red flag');
    expect(lights.played.map((p) => p.flag)).toEqual(['green', 'yellow', 'red']);
  });

  test("upstream trouble shows SPEC §8's message from the status event until it recovers", async () => {
    await connectedToLive();
    FakeEventSource.latest().emit('status', {
      sessionKey: 9693,
      upstream: 'rate-limited',
      transport: 'polling',
      message: 'Rate limited by OpenF1 API. Please wait before retrying.',
    });
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Rate limited by OpenF1 API. Please wait before retrying.',
    );
    FakeEventSource.latest().emit('status', {
      sessionKey: 9693,
      upstream: 'ok',
      transport: 'polling',
      message: null,
    });
    await tick();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(connection()).toHaveTextContent('Connected');
  });

  test("a failed connect toasts 'Connection Failed: Could not connect to live session. Please try again.'", async () => {
    stubServer(LIVE, {
      'GET /api/live/state': { status: 404, body: { error: 'No live session found' } },
    });
    const lights = recordingLights();
    renderBody(lights.api);
    await tick();
    await tick();
    const toasts = toastStore.getToasts();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({
      type: 'error',
      title: 'Connection Failed',
      message: 'Could not connect to live session. Please try again.',
    });
    expect(connection()).toHaveTextContent('Disconnected');
    expect(screen.getByText('Connection Failed: No live session found')).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  test("an ended trial's Connect shows the server's words, not 'Please try again'", async () => {
    const error = 'Your free trial has ended. Upgrade to keep following live sessions.';
    stubServer(LIVE, {
      'GET /api/live/state': { status: 403, body: { error, code: 'trial_expired' } },
    });
    const lights = recordingLights();
    renderBody(lights.api);
    await tick();
    await tick();
    expect(toastStore.getToasts()).toEqual([
      expect.objectContaining({ type: 'error', title: 'Connection Failed', message: error }),
    ]);
    expect(connection()).toHaveTextContent('Disconnected');
    expect(screen.getByText(`Connection Failed: ${error}`)).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});

describe('Race Control: auto-connect', () => {
  test('with auto-connect off a live session waits for Connect', async () => {
    updateLocalSettings(USER.email, { autoConnect: false, delayEnabled: false });
    const server = stubServer();
    renderBody(recordingLights().api);
    await tick();
    await tick();
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(connection()).toHaveTextContent('Disconnected');
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await tick();
    await tick();
    FakeEventSource.latest().open();
    await tick();
    expect(connection()).toHaveTextContent('Connected · Live');
    expect(server.calls.filter((c) => c.route === 'POST /api/sessions/track')).toHaveLength(1);
  });

  test('does not connect while the lights are not ready, and does once they are', async () => {
    updateLocalSettings(USER.email, { screenLight: false });
    stubServer();
    const view = renderBody(recordingLights(null).api);
    await tick();
    await tick();
    expect(FakeEventSource.instances).toHaveLength(0);
    const ready = recordingLights('hue');
    view.rerender(tree(ready.api));
    await tick();
    await tick();
    await tick();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(ready.played[0]).toEqual({ flag: 'green', atEpochMs: undefined });
  });
});

describe('Race Control: auto-connect after a failed connect', () => {
  const STATE_OK = { body: { success: true, sessionKey: 9693, id: null, flag: null, upstream: null } };

  test('a server too busy to answer as the page opens: auto-connect says so and tries again, later each time', async () => {
    updateLocalSettings(USER.email, { delayEnabled: false });
    let failing = 2;
    const server = stubServer(LIVE, {
      'GET /api/live/state': () =>
        failing-- > 0
          ? { status: 503, body: { error: 'Service unavailable', code: 'unavailable' } }
          : STATE_OK,
    });
    renderBody(recordingLights().api);
    await tick();
    await tick();
    expect(screen.getByRole('button', { name: 'Connect' })).toBeEnabled();
    expect(screen.getByText(/Auto-connect tries again in a few seconds/)).toBeInTheDocument();
    const states = () => server.calls.filter((c) => c.route === 'GET /api/live/state').length;
    expect(states()).toBe(1);
    await tick(autoConnectRetryDelay(0) - 100);
    expect(states()).toBe(1);
    await tick(100);
    await tick();
    expect(states()).toBe(2);
    // The second try fails too: the next waits twice as long.
    await tick(autoConnectRetryDelay(1) - 100);
    expect(states()).toBe(2);
    await tick(100);
    await tick();
    expect(states()).toBe(3);
    FakeEventSource.latest().open();
    await tick();
    expect(connection()).toHaveTextContent('Connected · Live');
    expect(screen.queryByText(/Auto-connect tries again/)).not.toBeInTheDocument();
  });

  test('a refusal is not tried again: an account with every stream open keeps the server’s words', async () => {
    updateLocalSettings(USER.email, { delayEnabled: false });
    const server = stubServer(LIVE, {
      'GET /api/live/state': {
        status: 429,
        body: { error: 'Too many live streams are open for this account', code: 'rate_limited' },
      },
    });
    renderBody(recordingLights().api);
    await tick();
    await tick();
    await tick(autoConnectRetryDelay(5) * 2);
    expect(server.calls.filter((c) => c.route === 'GET /api/live/state')).toHaveLength(1);
    expect(screen.queryByText(/Auto-connect tries again/)).not.toBeInTheDocument();
    expect(screen.getByText(/Too many live streams are open/)).toBeInTheDocument();
  });

  test('with auto-connect off a failed connect waits for the fan', async () => {
    updateLocalSettings(USER.email, { autoConnect: false, delayEnabled: false });
    const server = stubServer(LIVE, { 'GET /api/live/state': new TypeError('Failed to fetch') });
    renderBody(recordingLights().api);
    await tick();
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await tick();
    await tick();
    await tick(autoConnectRetryDelay(0) * 4);
    expect(server.calls.filter((c) => c.route === 'GET /api/live/state')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Connect' })).toBeEnabled();
  });
});

describe('Race Control: when the followed session is replaced', () => {
  const NEXT = {
    ...LIVE,
    data: { ...LIVE.data, date_start: '2026-03-08T04:12:00Z', date_end: '2026-03-08T06:12:00Z' },
  };

  test('auto-connect moves to the new live session (the demo race restarting, the next session)', async () => {
    updateLocalSettings(USER.email, { delayEnabled: false });
    let current: unknown = LIVE;
    const server = stubServer(LIVE, { 'GET /api/f1/current': () => ({ body: current }) });
    renderBody(recordingLights().api);
    await tick();
    await tick();
    FakeEventSource.latest().open();
    await tick();
    expect(FakeEventSource.instances).toHaveLength(1);
    current = NEXT;
    await tickBeating(CURRENT_SESSION_REFRESH_MS);
    await act(() =>
      vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: paced(3_000) }),
    );
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    FakeEventSource.latest().open();
    await tick();
    expect(connection()).toHaveTextContent('Connected · Live');
    const tracked = server.calls.filter((c) => c.route === 'POST /api/sessions/track');
    expect(
      tracked.map((c) => (c.body as { sessionData: { date_start: string } }).sessionData.date_start),
    ).toEqual([LIVE.data.date_start, NEXT.data.date_start]);
    expect(server.calls.filter((c) => c.route === 'POST /api/sessions/end')).toHaveLength(1);
  });

  test('with auto-connect off the tab stays where the fan put it', async () => {
    updateLocalSettings(USER.email, { autoConnect: false, delayEnabled: false });
    let current: unknown = LIVE;
    const server = stubServer(LIVE, { 'GET /api/f1/current': () => ({ body: current }) });
    renderBody(recordingLights().api);
    await tick();
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await tick();
    await tick();
    FakeEventSource.latest().open();
    await tick();
    current = NEXT;
    await tickBeating(CURRENT_SESSION_REFRESH_MS);
    const fetched = () => server.calls.filter((c) => c.route === 'GET /api/f1/current').length;
    await act(() => vi.waitFor(() => expect(fetched()).toBe(2)));
    // The new session shows (so the refetch landed), and the tab stayed where it was.
    await act(() => vi.waitFor(() => expect(screen.getAllByText(/Live now/).length).toBeGreaterThan(0)));
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(connection()).toHaveTextContent('Connected · Live');
  });
});

describe('Race Control: a server that goes away and comes back', () => {
  /** The server, as the page reaches it: killed (`up = false`), every call fails as fetch does then. */
  function killableServer() {
    const server = { up: true };
    let tickets = 0;
    const unreachable = () => new TypeError('Failed to fetch');
    const routes = {
      'POST /api/live/ticket': () =>
        server.up ? { body: { success: true, ticket: `ticket-${++tickets}` } } : unreachable(),
      'GET /api/live/state': () =>
        server.up
          ? { body: { success: true, sessionKey: 9693, id: null, flag: null, upstream: null } }
          : unreachable(),
    };
    return { server, routes };
  }
  const notice = () => screen.queryByRole('status', { name: 'Reconnected' });

  test('heartbeats stop: within LIVE_STREAM_SILENCE_MS the line says Reconnecting… and an alert says why; the server answers again: Connected again, then the usual line', async () => {
    expect(LIVE_STREAM_SILENCE_MS).toBeLessThanOrEqual(10_000);
    const { server, routes } = killableServer();
    await connectedToLive(5, routes);
    const first = FakeEventSource.latest();
    // A quiet race: no flag for a while, but the heartbeats say the server is there.
    await tickBeating(3 * LIVE_STREAM_SILENCE_MS);
    expect(connection()).toHaveTextContent('Connected · Live');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(1);

    // The server is gone behind a connection that stays open: no error, nothing at all.
    server.up = false;
    await tick(LIVE_STREAM_SILENCE_MS - 1);
    expect(connection()).toHaveTextContent('Connected · Live');
    await tick(1);
    expect(connection()).toHaveTextContent('Reconnecting…');
    expect(connection()).not.toHaveTextContent('Live');
    expect(screen.getByRole('alert')).toHaveTextContent(
      "Flaglight's server does not answer. Trying again every few seconds; your lights keep the last flag until it is back.",
    );
    expect(first.closed).toBe(true);
    // It keeps trying, and keeps saying so.
    await tick(50_000);
    expect(connection()).toHaveTextContent('Reconnecting…');
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();

    // Back: the next try (at most STREAM_RETRY_MAX_MS away) opens the stream where it left off.
    server.up = true;
    await tick(STREAM_RETRY_MAX_MS);
    expect(FakeEventSource.instances).toHaveLength(2);
    FakeEventSource.latest().open();
    await tick();
    expect(connection()).toHaveTextContent('Connected · Live');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(notice()).toHaveTextContent('Connected again: your lights follow the race again.');
    await tickBeating(RECONNECTED_NOTICE_MS);
    expect(notice()).not.toBeInTheDocument();
    expect(connection()).toHaveTextContent('Connected · Live');
  });

  test('a server that comes back following another session (the demo race restarted): auto-connect moves to it and says Connected again', async () => {
    const { server, routes } = killableServer();
    let current: unknown = LIVE;
    await connectedToLive(5, { ...routes, 'GET /api/f1/current': () => ({ body: current }) });
    server.up = false;
    FakeEventSource.latest().fail();
    await tick();
    expect(connection()).toHaveTextContent('Reconnecting…');
    server.up = true;
    current = {
      ...LIVE,
      data: { ...LIVE.data, date_start: '2026-03-08T04:12:00Z', date_end: '2026-03-08T06:12:00Z' },
    };
    await tick(CURRENT_SESSION_REFRESH_MS);
    // The answer lands and auto-connect follows the session the server now has.
    await tick(100);
    await tick(100);
    expect(connection()).toHaveTextContent('Connecting…');
    await tick();
    FakeEventSource.latest().open();
    await tick();
    expect(connection()).toHaveTextContent('Connected · Live');
    expect(notice()).toHaveTextContent('Connected again');
  });

  test('a stream the server closes (a killed process) says Reconnecting… at once', async () => {
    const { server, routes } = killableServer();
    await connectedToLive(5, routes);
    server.up = false;
    FakeEventSource.latest().fail();
    await tick();
    expect(connection()).toHaveTextContent('Reconnecting…');
    expect(screen.getByRole('alert')).toHaveTextContent("Flaglight's server does not answer.");
  });

  test('polling instead of a stream: a failed poll says Reconnecting… and the next answer Connected again', async () => {
    const { server, routes } = killableServer();
    stubServer(LIVE, {
      ...routes,
      'GET /api/sessions/centralized-status': {
        body: { success: true, centralizedPollingEnabled: false, isPollingActive: false },
      },
    });
    renderBody(recordingLights().api);
    await tick();
    await tick();
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(connection()).toHaveTextContent('Connected · Live');
    await tick(POLL_INTERVAL_MS);
    expect(connection()).toHaveTextContent('Connected · Live');

    server.up = false;
    await tick(POLL_INTERVAL_MS);
    expect(connection()).toHaveTextContent('Reconnecting…');
    expect(screen.getByRole('alert')).toHaveTextContent("Flaglight's server does not answer.");
    await tick(30_000);
    expect(connection()).toHaveTextContent('Reconnecting…');

    server.up = true;
    // The polls' back-off after errors (SPEC §4) is 5 s at most.
    await tick(5_000);
    expect(connection()).toHaveTextContent('Connected · Live');
    expect(notice()).toHaveTextContent('Connected again');
  });
});

describe('Race Control: countdown', () => {
  test('counts down to the next session start and refreshes every 5 s', async () => {
    stubServer(UPCOMING);
    renderBody(recordingLights().api);
    await tick();
    // No schedule: the next start on the hour or half hour, 04:30 UTC.
    expect(screen.getByTestId('session-countdown')).toHaveTextContent('00:20:00');
    await tick(4_999);
    expect(screen.getByTestId('session-countdown')).toHaveTextContent('00:20:00');
    await tick(1);
    expect(screen.getByTestId('session-countdown')).toHaveTextContent('00:19:55');
  });
});

describe('Race Control: feed health', () => {
  const f1 = (state: string, error?: string) => ({
    name: 'f1-live-timing',
    state,
    lastMessageAt: NOW.toISOString(),
    ...(error ? { error } : {}),
  });
  const openf1 = (state: string) => ({ name: 'openf1', state, lastMessageAt: NOW.toISOString() });
  const health = () => screen.getByRole('status', { name: 'Live source' });

  test('one line says which source drives the lights, and follows a failover', async () => {
    let sources: unknown[] = [f1('active'), openf1('standby')];
    stubServer(LIVE, { 'GET /api/live/sources': () => ({ body: sources }) });
    renderBody(recordingLights().api);
    await tick();
    await tick();
    expect(health()).toHaveTextContent('Flags from F1 live timing · OpenF1 standing by');
    sources = [f1('down', 'connection closed'), openf1('active')];
    await tick(FEED_HEALTH_REFRESH_MS);
    await act(() =>
      vi.waitFor(() => expect(health()).toHaveTextContent('Flags from OpenF1 · F1 live timing is down')),
    );
    sources = [f1('down'), { ...openf1('down'), error: 'OpenF1 answered 503' }];
    await tick(FEED_HEALTH_REFRESH_MS);
    await act(() =>
      vi.waitFor(() =>
        expect(health()).toHaveTextContent(
          'No live source is answering: the lights keep the last flag until one is back.',
        ),
      ),
    );
  });

  test('with no live session the line is not shown', async () => {
    stubServer(UPCOMING, { 'GET /api/live/sources': { body: [openf1('active')] } });
    renderBody(recordingLights().api);
    await tick();
    expect(screen.queryByRole('status', { name: 'Live source' })).not.toBeInTheDocument();
  });
});
