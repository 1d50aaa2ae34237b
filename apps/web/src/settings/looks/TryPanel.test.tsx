import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../../scripts/test-pace.mjs';
import { companion } from '../../../test/companions';
import { stubApi } from '../../../test/fetch-stub';
import { baseRoutes } from '../../../test/lights';
import { buildPreferencesDocument } from '../../../test/preferences';
import { renderApp, SCREEN_WAIT } from '../../../test/render-app';
import { buildUser, seedSession } from '../../../test/users';
import { LIVE_TEXTS } from '../../live/live-texts';
import { loadSettingsPage } from '../../routing/lazy-screens';
import { updateLocalSettings } from '../local-settings';
import { LOOKS_TEXTS as T } from './looks-texts';
import { SAMPLE_LENGTH_MS, SAMPLE_STEPS, useSample } from './use-sample';

const fan = buildUser({ plan: 'lifetime' });

// Settings is a lazy screen: its first import can take seconds on a busy machine.
beforeAll(() => loadSettingsPage(), paced(60_000));
beforeEach(() => seedSession(fan));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

function stubAccount(devices: unknown[]) {
  return stubApi({
    ...baseRoutes(fan),
    'GET /api/devices': { body: devices },
    'GET /api/me/preferences': { body: buildPreferencesDocument(1) },
    'POST /api/devices/test': { body: { success: true, devices: 1 } },
    'PUT /api/me/preferences': (body) => ({
      body: { ...(body as object), version: 2, updatedAt: null },
    }),
  });
}

async function openSection() {
  renderApp('/settings?section=looks');
  return screen.findByRole('region', { name: 'Flags & effects' }, { timeout: 2 * SCREEN_WAIT.timeout });
}

const tests = (api: ReturnType<typeof stubApi>) =>
  api.calls.filter((call) => call.route === 'POST /api/devices/test').map((call) => call.body);

describe('Try and Play a sample', { timeout: paced(30_000) }, () => {
  test('Try plays the flag now on the companion lights through Test your lights, and says so in its card', async () => {
    const api = stubAccount([companion()]);
    const section = await openSection();
    const red = within(section).getByRole('region', { name: 'Red flag' });
    // The section reads the account's companions itself, so a Try reaches them from Settings.
    await waitFor(() => expect(api.calls.map((call) => call.route)).toContain('GET /api/devices'));
    await userEvent.click(within(red).getByRole('button', { name: 'Try Red flag' }));
    await waitFor(() => expect(tests(api)).toEqual([{ state: 'red' }]));
    expect(await within(red).findByRole('status')).toHaveTextContent(LIVE_TEXTS.testSent('Red flag'));
  });

  test('a look changed just before Try is saved with the account before the companions are asked to play it', async () => {
    const api = stubAccount([companion()]);
    const section = await openSection();
    await waitFor(() => expect(api.calls.map((call) => call.route)).toContain('GET /api/devices'));
    const red = within(section).getByRole('region', { name: 'Red flag' });
    // Pressed together: the change is still waiting out the save's debounce when Try is pressed.
    fireEvent.click(within(red).getByRole('radio', { name: 'Red flag colour blue' }));
    fireEvent.click(within(red).getByRole('button', { name: 'Try Red flag' }));
    await waitFor(() => expect(tests(api)).toEqual([{ state: 'red' }]));
    const routes = api.calls.map((call) => call.route);
    const saved = routes.indexOf('PUT /api/me/preferences');
    expect(saved).toBeGreaterThanOrEqual(0);
    expect(saved).toBeLessThan(routes.indexOf('POST /api/devices/test'));
  });

  test('with no smart lights, Try plays on the on-screen light and says so; with the screen unused too, the alert', async () => {
    const api = stubAccount([]);
    const section = await openSection();
    const green = within(section).getByRole('region', { name: 'Green flag' });
    await userEvent.click(within(green).getByRole('button', { name: 'Try Green flag' }));
    // The on-screen light (used by default) played it (the journey sees its colour).
    expect(await within(green).findByRole('status')).toHaveTextContent(T.tryScreenOnly);
    expect(tests(api)).toEqual([]);

    // Without it, nothing played: the dashboard's alert.
    updateLocalSettings(fan.email, { screenLight: false });
    await userEvent.click(within(green).getByRole('button', { name: 'Try Green flag' }));
    expect(await within(green).findByRole('alert')).toHaveTextContent(LIVE_TEXTS.noLights);
  });

  test('Play a sample shows its progress and can be stopped', async () => {
    const api = stubAccount([companion()]);
    const section = await openSection();
    await waitFor(() => expect(api.calls.map((call) => call.route)).toContain('GET /api/devices'));
    await userEvent.click(within(section).getByRole('button', { name: T.playSample }));
    expect(await within(section).findByText(T.sampleStep(1, 5, 'Green flag'))).toBeVisible();
    expect(within(section).getByRole('progressbar', { name: T.sampleProgress })).toHaveAttribute(
      'value',
      '1',
    );
    await waitFor(() => expect(tests(api)).toEqual([{ state: 'green' }]));
    await userEvent.click(within(section).getByRole('button', { name: T.stopSample }));
    expect(within(section).queryByRole('progressbar')).toBeNull();
    expect(within(section).getByRole('button', { name: T.playSample })).toBeVisible();
  });
});

describe('the sample', () => {
  test('plays green, yellow, safety car, green, chequered at their times in about 30 s, then ends', () => {
    vi.useFakeTimers();
    const played: string[] = [];
    const { result } = renderHook(() => useSample((flag) => played.push(flag)));
    act(() => result.current.start());
    act(() => {
      vi.advanceTimersByTime(0);
    });
    expect(played).toEqual(['green']);
    for (const step of SAMPLE_STEPS.slice(1)) {
      act(() => {
        vi.advanceTimersByTime(step.atMs - SAMPLE_STEPS[played.length - 1]!.atMs);
      });
    }
    expect(played).toEqual(['green', 'yellow', 'safety', 'green', 'checkered']);
    expect(result.current.step).toBe(4);
    expect(SAMPLE_LENGTH_MS).toBeGreaterThanOrEqual(25_000);
    expect(SAMPLE_LENGTH_MS).toBeLessThanOrEqual(35_000);
    act(() => {
      vi.advanceTimersByTime(SAMPLE_LENGTH_MS);
    });
    expect(result.current.step).toBeNull();
  });

  test('a stopped sample plays nothing more', () => {
    vi.useFakeTimers();
    const played: string[] = [];
    const { result } = renderHook(() => useSample((flag) => played.push(flag)));
    act(() => result.current.start());
    act(() => {
      vi.advanceTimersByTime(7_000);
    });
    act(() => result.current.cancel());
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(played).toEqual(['green', 'yellow']);
    expect(result.current.step).toBeNull();
  });
});
