import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { stubApi } from '../../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, hueLights, lifxBulbs, renderWithLights } from '../../../test/lights';
import { buildUser, seedSession } from '../../../test/users';
import { useLights, type LightsApi } from '../../lights/lights-context';
import { readLocalSettings, updateLocalSettings } from '../../settings/local-settings';
import { LightControlPanel } from '../panels/LightControlPanel';

const fan = buildUser({ email: FAN_EMAIL });
const LIST = 'GET /sims/lifx/v1/lights/all';

beforeEach(() => {
  seedSession(fan);
  window.localStorage.setItem(`lifx_token_${FAN_EMAIL}`, 'demo-token');
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
    [LIST]: { body: lifxBulbs(count, [1]) },
    'PUT /sims/lifx/v1/lights/states': { status: 207, body: { results: [] } },
    ...routes,
  });
  await renderWithLights(
    <>
      <Probe />
      <LightControlPanel />
    </>,
  );
  return api;
}

const list = () => screen.findByRole('list', { name: 'LIFX lights' });
const pageNav = () => screen.queryByRole('navigation', { name: 'LIFX light pages' });

describe('device list (SPEC §2 Light Control)', () => {
  test('search only above 5 devices; online and offline bulbs are marked', async () => {
    await renderPanel(5);
    const items = within(await list()).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(within(items[0]!).getByText('Online')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Offline')).toBeInTheDocument();
  });

  test('above 5: search filters by name; 12 bulbs make two pages of 10', async () => {
    await renderPanel(12);
    await list();
    const nav = pageNav()!;
    expect(within(nav).getAllByRole('button', { name: /^Page/ })).toHaveLength(2);
    expect(within(await list()).getAllByRole('listitem')).toHaveLength(10);
    fireEvent.click(within(nav).getByRole('button', { name: 'Page 2' }));
    expect(within(await list()).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search LIFX lights' }), {
      target: { value: 'bulb 1' },
    });
    // Bulb 1, Bulb 10, Bulb 11, Bulb 12; back on page 1.
    expect(within(await list()).getAllByRole('listitem')).toHaveLength(4);
    expect(pageNav()).not.toBeInTheDocument();
  });

  test('at most 5 page buttons with 80 bulbs, moving with the current page', async () => {
    await renderPanel(80);
    await list();
    const buttons = () =>
      within(pageNav()!)
        .getAllByRole('button', { name: /^Page/ })
        .map((b) => b.textContent);
    expect(buttons()).toEqual(['1', '2', '3', '4', '5']);
    fireEvent.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(buttons()).toEqual(['3', '4', '5', '6', '7']);
    expect(screen.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(buttons()).toEqual(['4', '5', '6', '7', '8']);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  test('Select all / Deselect all act on the matching bulbs and are kept per user', async () => {
    await renderPanel(12);
    await list();
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(readLocalSettings(FAN_EMAIL).selectedLifxDeviceIds).toHaveLength(12);
    expect(screen.getByText('12 of 12 selected')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'Bulb 1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deselect all' }));
    expect(readLocalSettings(FAN_EMAIL).selectedLifxDeviceIds).toHaveLength(8);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Bulb 3\b/ }));
    expect(readLocalSettings(FAN_EMAIL).selectedLifxDeviceIds).toHaveLength(7);
  });

  test('hide takes a bulb out of the list and the selection; Show hidden brings it back', async () => {
    await renderPanel(3);
    await list();
    fireEvent.click(screen.getByRole('checkbox', { name: /Bulb 2/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Hide Bulb 2' }));
    expect(within(await list()).getAllByRole('listitem')).toHaveLength(2);
    expect(readLocalSettings(FAN_EMAIL)).toMatchObject({
      hiddenLifxDeviceIds: ['d073d5000001'],
      selectedLifxDeviceIds: [],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show hidden lights (1)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show Bulb 2' }));
    expect(readLocalSettings(FAN_EMAIL).hiddenLifxDeviceIds).toEqual([]);
    expect(within(await list()).getAllByRole('listitem')).toHaveLength(3);
  });

  test('a stored selection is pruned to the bulbs that still exist after a device list', async () => {
    updateLocalSettings(FAN_EMAIL, {
      selectedLifxDeviceIds: ['d073d5000000', 'gone-bulb'],
      hiddenLifxDeviceIds: ['gone-too'],
    });
    await renderPanel(3);
    await list();
    await waitFor(() =>
      expect(readLocalSettings(FAN_EMAIL)).toMatchObject({
        selectedLifxDeviceIds: ['d073d5000000'],
        hiddenLifxDeviceIds: [],
      }),
    );
  });
});

describe('provider tabs', () => {
  test('the Hue tab without a connection links to /settings', async () => {
    await renderPanel(3);
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Philips Hue' }));
    const link = await screen.findByRole('link', { name: 'Connect Philips Hue in Settings' });
    fireEvent.click(link);
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
  });

  test('a LIFX error shows Connection Error with a link to settings', async () => {
    await renderPanel(3, { [LIST]: { status: 401, body: {} } });
    const box = await screen.findByRole('alert');
    expect(within(box).getByText('Connection Error')).toBeInTheDocument();
    expect(within(box).getByText('Invalid LIFX API token')).toBeInTheDocument();
    expect(within(box).getByRole('link', { name: 'Open Settings to reconnect' })).toBeInTheDocument();
  });
});

describe('playing flags (LightsApi contract)', () => {
  test('Test lights plays green on the selected LIFX bulbs and on the on-screen light', async () => {
    updateLocalSettings(FAN_EMAIL, { selectedLifxDeviceIds: ['d073d5000000', 'd073d5000002'] });
    const api = await renderPanel(3);
    await list();
    await waitFor(() => expect(lights.drivenProvider).toBe('lifx'));
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Test lights' }));
    await waitFor(() => expect(screen.getByTestId('screen-light')).toHaveAttribute('data-color', 'green'));
    await waitFor(() =>
      expect(api.calls.map((c) => decodeURIComponent(c.route))).toContain(
        'PUT /sims/lifx/v1/lights/id:d073d5000000,id:d073d5000002/state',
      ),
    );
    expect(alert).not.toHaveBeenCalled();
  });

  test('the driven provider follows the selection as it is changed, here or in another tab', async () => {
    await renderPanel(3);
    await list();
    await waitFor(() => expect(lights.restoring).toBe(false));
    expect(lights.drivenProvider).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    await waitFor(() => expect(lights.drivenProvider).toBe('lifx'));
    expect(screen.getByText('Flags drive these lights.')).toBeInTheDocument();
    act(() => {
      updateLocalSettings(FAN_EMAIL, { selectedLifxDeviceIds: ['not-a-listed-bulb'] });
    });
    await waitFor(() => expect(lights.drivenProvider).toBeNull());
    expect(screen.queryByText('Flags drive these lights.')).not.toBeInTheDocument();
  });

  test('without a selection playFlag returns false, but the screen still shows the flag', async () => {
    await renderPanel(3);
    await list();
    await waitFor(() => expect(lights.restoring).toBe(false));
    expect(lights.drivenProvider).toBeNull();
    let played = true;
    act(() => {
      played = lights.playFlag('red');
    });
    expect(played).toBe(false);
    await waitFor(() => expect(screen.getByTestId('screen-light')).toHaveAttribute('data-color', 'red'));
  });

  test('the on-screen light is a light the user can untick: unticked, the screen shows no flag', async () => {
    await renderPanel(3);
    await list();
    await waitFor(() => expect(lights.restoring).toBe(false));
    const box = screen.getByRole('checkbox', { name: 'Use this screen as a light' });
    expect(box).toBeChecked();
    fireEvent.click(box);
    expect(readLocalSettings(FAN_EMAIL).screenLight).toBe(false);
    expect(screen.getByText(/Not used as a light/)).toBeInTheDocument();
    act(() => {
      lights.playFlag('red');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getByTestId('screen-light')).toHaveAttribute('data-color', 'off');
    fireEvent.click(box);
    expect(readLocalSettings(FAN_EMAIL).screenLight).toBe(true);
    act(() => {
      lights.playFlag('yellow');
    });
    await waitFor(() => expect(screen.getByTestId('screen-light')).toHaveAttribute('data-color', 'yellow'));
  });

  test('Hue wins when both are ready; a delayed flag goes to the server at its time', async () => {
    updateLocalSettings(FAN_EMAIL, {
      selectedLifxDeviceIds: ['d073d5000000'],
      selectedHueDeviceIds: ['hue-2'],
    });
    const api = await renderPanel(3, {
      'GET /auth/hue/status': { body: { connected: true, hasApplicationKey: true } },
      'GET /hue/lights': { body: { lights: hueLights(2) } },
      'POST /hue/lights/flag': { body: { success: true } },
    });
    await waitFor(() => expect(lights.drivenProvider).toBe('hue'));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => {
      expect(lights.playFlag('yellow', { atEpochMs: Date.now() + 5_000 })).toBe(true);
    });
    const flagCalls = () => api.calls.filter((c) => c.route === 'POST /hue/lights/flag');
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    expect(flagCalls()).toHaveLength(0);
    expect(screen.getByTestId('screen-light')).toHaveAttribute('data-color', 'off');
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(flagCalls()).toHaveLength(1));
    expect(flagCalls()[0]?.body).toEqual({ lightIds: ['hue-2'], flag: 'yellow', duration: 500 });
    // The screen light renders after the timer that sent the flag: wait for it (flaky before).
    await waitFor(() => expect(screen.getByTestId('screen-light')).not.toHaveAttribute('data-color', 'off'));
    expect(api.calls.some((c) => c.route.startsWith('POST /sims/lifx/v1/lights/'))).toBe(false);

    act(() => {
      lights.playFlag('red', { atEpochMs: Date.now() + 5_000 });
      lights.cancelPending();
    });
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    expect(flagCalls()).toHaveLength(1);
  });
});
