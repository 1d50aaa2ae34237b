import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { paced } from '../../../../../scripts/test-pace.mjs';
import { stubApi } from '../../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, goveeLights, lifxBulbs, renderWithLights } from '../../../test/lights';
import { buildUser, seedSession } from '../../../test/users';
import { useLights, type LightsApi } from '../../lights/lights-context';
import { readLocalSettings, updateLocalSettings } from '../../settings/local-settings';
import { toastStore } from '../../toasts/toast';
import { LightControlPanel } from '../panels/LightControlPanel';

const fan = buildUser({ email: FAN_EMAIL });
const FLAG = 'POST /api/govee/lights/flag';

beforeEach(() => {
  seedSession(fan);
  toastStore.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

let lights: LightsApi;
function Probe() {
  lights = useLights();
  return null;
}

async function renderPanel(count: number, routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({
    ...baseRoutes(fan),
    'GET /api/govee/status': { body: { connected: true } },
    'GET /api/govee/lights': { body: { lights: goveeLights(count) } },
    [FLAG]: {
      body: { success: true, flag: 'green', lights: 1, sent: true, mode: 'normal', note: 'solid green' },
    },
    ...routes,
  });
  await renderWithLights(
    <>
      <Probe />
      <LightControlPanel />
    </>,
  );
  fireEvent.mouseDown(await screen.findByRole('tab', { name: /Govee/ }));
  return api;
}

const flagCalls = (api: ReturnType<typeof stubApi>) => api.calls.filter((c) => c.route === FLAG);

test('the Govee tab lists the lights with search, pages of 10, selection and hiding', async () => {
  await renderPanel(12);
  const list = await screen.findByRole('list', { name: 'Govee lights' });
  expect(within(list).getAllByRole('listitem')).toHaveLength(10);
  expect(screen.getByRole('searchbox')).toBeInTheDocument();
  expect(screen.getByRole('navigation', { name: 'Govee light pages' })).toBeInTheDocument();
  expect(screen.getByText(/solid colours only/)).toBeInTheDocument();
  fireEvent.click(within(list).getAllByRole('checkbox')[0]!);
  await waitFor(() =>
    expect(readLocalSettings(FAN_EMAIL).selectedGoveeDeviceIds).toEqual([goveeLights(1)[0]!.id]),
  );
  await waitFor(() => expect(lights.drivenProvider).toBe('govee'));
});

test('Test lights plays green on the selected Govee lights through the server', async () => {
  const [first] = goveeLights(1);
  updateLocalSettings(FAN_EMAIL, { selectedGoveeDeviceIds: [first!.id] });
  const api = await renderPanel(3);
  await waitFor(() => expect(lights.drivenProvider).toBe('govee'));
  fireEvent.click(screen.getByRole('button', { name: 'Test lights' }));
  await waitFor(() => expect(flagCalls(api)).toHaveLength(1));
  expect(flagCalls(api)[0]?.body).toEqual({ lightIds: [first!.id], flag: 'green' });
});

// 11.5 s of fake time with the page rendering between steps: more than Vitest's 5 s default of real
// time on a machine the test lanes keep busy.
test(
  'beside LIFX, a delayed flag reaches Govee at its time; cancelling drops it',
  { timeout: paced(30_000) },
  async () => {
    window.localStorage.setItem(`lifx_token_${FAN_EMAIL}`, 'demo-token');
    const [first] = goveeLights(1);
    updateLocalSettings(FAN_EMAIL, {
      selectedLifxDeviceIds: ['d073d5000000'],
      selectedGoveeDeviceIds: [first!.id],
    });
    const api = await renderPanel(2, {
      'GET /sims/lifx/v1/lights/all': { body: lifxBulbs(2) },
      'PUT /sims/lifx/v1/lights/states': { status: 207, body: { results: [] } },
      'POST /sims/lifx/v1/lights/id:d073d5000000/effects/pulse': { status: 207, body: { results: [] } },
    });
    // LIFX connects (its lights listed) before it drives: beyond waitFor's 1 s on a busy machine,
    // and once beyond 10 s with Vitest's four workers alone on the two cores.
    await waitFor(() => expect(lights.drivenProvider).toBe('lifx'), { timeout: paced(20_000) });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => {
      expect(lights.playFlag('red', { atEpochMs: Date.now() + 5_000 })).toBe(true);
    });
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    expect(flagCalls(api)).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(flagCalls(api)).toHaveLength(1));
    expect(flagCalls(api)[0]?.body).toEqual({ lightIds: [first!.id], flag: 'red' });
    act(() => {
      lights.playFlag('green', { atEpochMs: Date.now() + 5_000 });
      lights.cancelPending();
    });
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    expect(flagCalls(api)).toHaveLength(1);
  },
);

test('a flag the day’s budget skips is said once; a refused key marks Govee disconnected', async () => {
  const [first] = goveeLights(1);
  updateLocalSettings(FAN_EMAIL, { selectedGoveeDeviceIds: [first!.id] });
  let answer: { status?: number; body: unknown } = {
    body: {
      success: true,
      flag: 'yellow',
      lights: 1,
      sent: false,
      mode: 'track_only',
      note: 'not sent: budget low',
    },
  };
  await renderPanel(2, { [FLAG]: () => answer });
  await waitFor(() => expect(lights.drivenProvider).toBe('govee'));
  const titles = () => toastStore.getToasts().map((t) => t.title);
  act(() => void lights.playFlag('yellow'));
  await waitFor(() => expect(titles()).toContain('Govee: not sent: budget low'));
  act(() => void lights.playFlag('yellow'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(titles().filter((t) => t === 'Govee: not sent: budget low')).toHaveLength(1);
  answer = {
    status: 403,
    body: { error: 'Govee no longer accepts the stored API key.', code: 'govee_key_refused' },
  };
  act(() => void lights.playFlag('red'));
  await waitFor(() => expect(lights.drivenProvider).toBe(null));
  fireEvent.mouseDown(screen.getByRole('tab', { name: /Govee/ }));
  await waitFor(() =>
    expect(document.body.textContent).toContain('Govee no longer accepts the stored API key.'),
  );
  expect(screen.getByRole('link', { name: 'Open Settings to reconnect' })).toBeInTheDocument();
});
