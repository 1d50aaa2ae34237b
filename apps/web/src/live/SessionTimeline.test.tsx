import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { FakeEventSource } from '../../test/fake-event-source';
import { stubApi } from '../../test/fetch-stub';
import { createTestQueryClient } from '../../test/render-app';
import { buildUser } from '../../test/users';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import type { LightsApi } from '../lights/lights-context';
import { LightsContext } from '../lights/lights-context';
import { updateLocalSettings } from '../settings/local-settings';
import { setFlagAccent } from '../ui/flag-accent';
import { useLiveConnectionContext } from './live-connection-context';
import { LiveProvider } from './LiveProvider';
import { replayPositionMs, SessionTimeline } from './SessionTimeline';
import type { LiveTarget } from './use-live-connection';

const USER = buildUser({ email: 'timeline.fan@example.com' });
const NOW = new Date('2026-03-08T04:10:00Z');
const MIN = 60_000;

const REPLAY: LiveTarget = {
  kind: 'replay',
  sessionKey: 900_000_001,
  title: '2021 Saudi Arabian Grand Prix – Race',
  speed: 10,
  startMinutes: 10,
  source: 'bundled',
  id: '2021-saudi-arabia-race',
  timeline: {
    lengthMs: 100 * MIN,
    periods: [
      { from: 0, to: 20 * MIN, state: 'green' },
      { from: 20 * MIN, to: 30 * MIN, state: 'safety_car' },
      { from: 30 * MIN, to: 90 * MIN, state: 'green' },
      { from: 90 * MIN, to: 100 * MIN, state: 'checkered' },
    ],
    sectorMarks: [{ from: 15 * MIN, to: 16 * MIN, sectors: [4] }],
  },
};

function recordingLights() {
  const played: string[] = [];
  const api: LightsApi = {
    drivenProvider: 'lifx',
    restoring: false,
    playFlag(flag) {
      played.push(flag);
      return true;
    },
    playTest: () => true,
    cancelPending() {},
    followSession() {},
  };
  return { api, played };
}

function Harness({ target }: { target: LiveTarget }) {
  const { connect } = useLiveConnectionContext();
  return (
    <>
      <button type="button" onClick={() => connect(target)}>
        Follow
      </button>
      <SessionTimeline />
    </>
  );
}

function renderTimeline(target: LiveTarget, lights: LightsApi) {
  const auth = { status: 'authenticated', isAuthenticated: true, user: USER, token: 't' } as AuthContextValue;
  return render(
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthContext.Provider value={auth}>
        <LightsContext.Provider value={lights}>
          <LiveProvider>
            <Harness target={target} />
          </LiveProvider>
        </LightsContext.Provider>
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
}

function stubServer() {
  let tickets = 0;
  let replays = 1;
  return stubApi({
    'GET /api/live/state': {
      body: { success: true, sessionKey: 9693, id: null, flag: null, upstream: null },
    },
    'GET /api/sessions/centralized-status': {
      body: { success: true, centralizedPollingEnabled: true, isPollingActive: true },
    },
    'POST /api/live/ticket': () => ({ body: { success: true, ticket: `ticket-${++tickets}` } }),
    'POST /api/replays': () => ({ body: { success: true, sessionKey: 900_000_001 + replays++ } }),
  });
}

const tick = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Lets the feed ask for its ticket and open its stream, then opens it. */
async function openStream(count: number) {
  for (let i = 0; i < 10 && FakeEventSource.instances.length < count; i++) await tick();
  FakeEventSource.latest().open();
  await tick();
}

async function follow(target: LiveTarget, delaySeconds = 0) {
  updateLocalSettings(USER.email, { delaySeconds, delayEnabled: delaySeconds > 0 });
  const server = stubServer();
  const lights = recordingLights();
  renderTimeline(target, lights.api);
  fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
  await openStream(1);
  return { server, lights };
}

function flagEvent(id: number, state: string, message: string, extra: object = {}) {
  FakeEventSource.latest().emit(
    'flag',
    {
      sessionKey: 9693,
      state,
      activeSectors: [],
      cause: { date: new Date().toISOString(), message },
      emittedAt: new Date().toISOString(),
      ...extra,
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
});
afterEach(() => {
  act(() => setFlagAccent('green'));
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the session timeline in Race Control', () => {
  test('nothing shows while disconnected', () => {
    stubServer();
    renderTimeline(REPLAY, recordingLights().api);
    expect(screen.queryByRole('region', { name: 'Session timeline' })).not.toBeInTheDocument();
  });

  test('live, the strip grows from connecting with the flags shown', async () => {
    await follow({ kind: 'live', session: null });
    flagEvent(1, 'green', 'GREEN LIGHT');
    await tick(10_000);
    flagEvent(2, 'yellow', 'SAFETY CAR DEPLOYED', { safetyCar: true });
    await tick(20_000);
    const region = screen.getByRole('region', { name: 'Session timeline' });
    const strip = within(region).getByRole('img');
    expect(strip).toHaveAccessibleName(
      'Flag timeline since connecting: Green 0:00–0:10, Safety car 0:10–0:30. Now at 0:30, Safety car.',
    );
    await tick(30_000);
    expect(within(region).getByRole('img').getAttribute('aria-label')).toContain('Safety car 0:10–1:00');
    expect(
      within(region).queryByRole('button', { name: 'Jump to next flag change' }),
    ).not.toBeInTheDocument();
  });

  test('a replay shows its whole recording with the position moving at its speed', async () => {
    await follow(REPLAY);
    const region = screen.getByRole('region', { name: 'Session timeline' });
    const group = within(region).getByRole('group', {
      name: 'Flag timeline of the replay. Now at 10:00, Green.',
    });
    expect(within(group).getByTestId('timeline-position').style.left).toBe('10%');
    // Ten times faster: a minute later the replay is ten minutes on.
    await tick(MIN);
    expect(
      within(region).getByRole('group', { name: 'Flag timeline of the replay. Now at 20:00, Safety car.' }),
    ).toBeInTheDocument();
  });

  test('"Jump to next flag change" restarts the replay there, without blinking the lights green', async () => {
    const { server, lights } = await follow(REPLAY);
    expect(lights.played).toEqual(['green']);
    const jump = screen.getByRole('button', { name: 'Jump to next flag change' });
    fireEvent.click(jump);
    await tick();
    // The next change after minute 10 is the local yellow at minute 15.
    expect(server.calls.filter((c) => c.route === 'POST /api/replays').map((c) => c.body)).toEqual([
      { source: 'bundled', id: '2021-saudi-arabia-race', speed: 10, startMinutes: 15 },
    ]);
    await openStream(2);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(lights.played).toEqual(['green']);
    expect(screen.getByRole('group', { name: /Now at 15:00, Green\./ })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Jump to next flag change' }));
    await tick();
    expect(server.calls.filter((c) => c.route === 'POST /api/replays').at(-1)?.body).toMatchObject({
      startMinutes: 20,
    });
  });

  test('a period picked on the strip from the keyboard moves the replay to its start', async () => {
    const { server } = await follow(REPLAY);
    fireEvent.click(screen.getByRole('button', { name: 'Go to Chequered 1:30:00–1:40:00' }), { detail: 0 });
    await tick();
    expect(server.calls.find((c) => c.route === 'POST /api/replays')?.body).toMatchObject({
      startMinutes: 90,
    });
  });

  test('at the last change there is nothing to jump to', async () => {
    await follow({ ...REPLAY, startMinutes: 95 });
    expect(screen.getByRole('button', { name: 'Jump to next flag change' })).toBeDisabled();
  });

  test('a replay that cannot move says why and keeps playing', async () => {
    updateLocalSettings(USER.email, { delaySeconds: 0, delayEnabled: false });
    stubApi({
      'GET /api/live/state': {
        body: { success: true, sessionKey: 9693, id: null, flag: null, upstream: null },
      },
      'POST /api/live/ticket': { body: { success: true, ticket: 'ticket-1' } },
      'POST /api/replays': { status: 429, body: { error: 'Too many replays are running.' } },
    });
    renderTimeline(REPLAY, recordingLights().api);
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    await openStream(1);
    fireEvent.click(screen.getByRole('button', { name: 'Jump to next flag change' }));
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Could not move the replay: Too many replays are running.',
    );
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});

describe('replayPositionMs', () => {
  test('counts from the start minute at the replay speed, behind the delay, up to the end', () => {
    const timing = { connectedAt: 0, delayMs: 5_000, lengthMs: 60 * MIN };
    expect(replayPositionMs({ startMinutes: 2, speed: 10 }, { ...timing, now: 3_000 })).toBe(2 * MIN);
    expect(replayPositionMs({ startMinutes: 2, speed: 10 }, { ...timing, now: 11_000 })).toBe(3 * MIN);
    expect(replayPositionMs({ startMinutes: 2, speed: 10 }, { ...timing, now: 10 * 3_600_000 })).toBe(
      60 * MIN,
    );
  });
});
