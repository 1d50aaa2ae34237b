import type { LinkedDevice } from '@flaglight/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { companion, lanLights } from '../../test/companions';
import { stubApi } from '../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, lifxBulbs, renderWithLights } from '../../test/lights';
import { buildUser, seedSession } from '../../test/users';
import { LightControlPanel } from '../dashboard/panels/LightControlPanel';
import { useLights } from '../lights/lights-context';
import { TestFlags } from '../live/TestFlags';
import { readLocalSettings, updateLocalSettings } from '../settings/local-settings';
import { bridgePortsToAsk, checkThisComputer } from './bridge';
import { storeCompanionDevices } from './companion-store';
import { COMPANION_TEXTS as T } from './companion-texts';
import { companionLine } from './CompanionStatus';
import { useCompanionDevicesFeed } from './use-companions';

const fan = buildUser({ email: FAN_EMAIL });
const BRIDGE = 'http://127.0.0.1:47920';

beforeEach(() => {
  seedSession(fan);
});
afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

/** What LiveProvider does on every signed-in screen: device lists reach the lights engine. */
function Feed() {
  useCompanionDevicesFeed(FAN_EMAIL);
  return null;
}

let lights: ReturnType<typeof useLights>;
function Probe() {
  lights = useLights();
  return null;
}

const bridgeCalls = (api: ReturnType<typeof stubApi>) =>
  api.spy.mock.calls
    .map(([url, init]) => ({ url: url instanceof Request ? url.url : url.toString(), init }))
    .filter(({ url }) => url.startsWith(BRIDGE));

async function renderPanel(devices: LinkedDevice[], routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({
    ...baseRoutes(fan),
    'GET /api/devices': { body: devices },
    'GET /sims/lifx/v1/lights/all': { body: lifxBulbs(3) },
    ...routes,
  });
  await renderWithLights(
    <>
      <Feed />
      <Probe />
      <LightControlPanel />
    </>,
  );
  return api;
}

const STATUS = {
  version: '1.0.0',
  platform: 'linux-x64',
  linked: true,
  stream: { state: 'following', message: null, lastEventAt: null },
  session: null,
  flag: 'green',
  delayMs: 5000,
  lights: lanLights(3),
};

describe('the dashboard line of each companion (from the server, never from 127.0.0.1)', () => {
  test('online: following and how many lights it drives (every reachable one, or the selection)', async () => {
    const api = await renderPanel([companion()]);
    expect(
      await screen.findByText('Flaglight Companion Living-room PC: following, drives 2 lights'),
    ).toBeInTheDocument();
    act(() => {
      updateLocalSettings(FAN_EMAIL, {
        companionSelectedLights: { lifx_lan: ['d073d5000001'], hue_local: [] },
      });
    });
    expect(
      await screen.findByText('Flaglight Companion Living-room PC: following, drives 1 light'),
    ).toBeInTheDocument();
    expect(bridgeCalls(api)).toEqual([]);
    expect(screen.queryByText(T.whyPermission)).not.toBeInTheDocument();
  });

  test('offline: when it was last seen', async () => {
    const lastSeenAt = '2026-11-20T18:30:00.000Z';
    await renderPanel([companion({ online: false, lastSeenAt })]);
    const seen = new Date(lastSeenAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(
      await screen.findByText(`Flaglight Companion Living-room PC: offline, last seen ${seen}`),
    ).toBeInTheDocument();
  });

  test('no line without a linked companion', async () => {
    await renderPanel([]);
    await screen.findByRole('tab', { name: T.tab });
    expect(screen.queryByRole('button', { name: T.testHere })).not.toBeInTheDocument();
  });
});

describe('Test on this computer', () => {
  test('explains the local network question, then asks the bridge for its status and to play yellow', async () => {
    const api = await renderPanel([companion()], {
      'GET /api/status': { body: STATUS },
      'POST /api/test': { body: { success: true } },
    });
    fireEvent.click(await screen.findByRole('button', { name: T.testHere }));
    expect(screen.getByText(T.whyPermission)).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Flaglight Companion on this computer: following, drives 2 lights. Its lights play yellow now.',
      ),
    ).toBeInTheDocument();
    const calls = bridgeCalls(api);
    expect(calls.map((c) => `${c.init?.method} ${c.url}`)).toEqual([
      `GET ${BRIDGE}/api/status`,
      `POST ${BRIDGE}/api/test`,
    ]);
    expect(JSON.parse(calls[1]!.init?.body as string)).toEqual({ state: 'yellow' });
    // The session token never goes to the local bridge.
    for (const call of calls) expect(JSON.stringify(call.init?.headers ?? {})).not.toMatch(/authorization/i);
  });

  test("the companion's own count of driven lights wins; waiting for a session is said so", async () => {
    await renderPanel([companion()], {
      'GET /api/status': {
        body: {
          ...STATUS,
          stream: { state: 'waiting', message: 'No live session right now.' },
          lights: lanLights(3).map((light, i) => ({ ...light, driven: i !== 2 })),
        },
      },
      'POST /api/test': { body: { success: true } },
    });
    fireEvent.click(await screen.findByRole('button', { name: T.testHere }));
    expect(
      await screen.findByText(
        'Flaglight Companion on this computer: waiting for a live session, drives 2 lights. Its lights play yellow now.',
      ),
    ).toBeInTheDocument();
  });

  test('a refused permission or no companion is a plain message, not an error', async () => {
    await renderPanel([companion()], { 'GET /api/status': new TypeError('Failed to fetch') });
    fireEvent.click(await screen.findByRole('button', { name: T.testHere }));
    expect(await screen.findByText(T.noAnswer)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.testHere })).toBeEnabled();
  });

  test('a companion that is not linked yet points to the link page with its code', async () => {
    await renderPanel([companion()], {
      'GET /api/status': { body: { ...STATUS, linked: false, userCode: 'BCDF-GHJK', lights: [] } },
    });
    fireEvent.click(await screen.findByRole('button', { name: T.testHere }));
    expect(await screen.findByText(/not linked yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: T.openLinkPage })).toHaveAttribute(
      'href',
      '/link?code=BCDF-GHJK',
    );
  });
});

describe('who drives a light selected in the cloud and on the companion', () => {
  beforeEach(() => {
    window.localStorage.setItem(`lifx_token_${FAN_EMAIL}`, 'demo-token');
    updateLocalSettings(FAN_EMAIL, { selectedLifxDeviceIds: ['d073d5000000', 'd073d5000002'] });
  });

  const sentTo = (api: ReturnType<typeof stubApi>) =>
    api.calls.map((c) => decodeURIComponent(c.route)).filter((route) => route.includes('/state'));

  test('the companion by default: the browser leaves the shared bulb out; answering This browser gives it back', async () => {
    // The companion reaches the first bulb only.
    const api = await renderPanel([companion({ lights: lanLights(1) })], {
      'PUT /sims/lifx/v1/lights/states': { status: 207, body: { results: [] } },
    });
    const prompt = await screen.findByRole('group', { name: 'Who drives shared lights' });
    expect(prompt).toHaveTextContent(T.sharedQuestion(1));
    expect(screen.getByRole('button', { name: T.driverCompanion })).toHaveAttribute('aria-pressed', 'true');

    await screen.findByRole('list', { name: 'LIFX lights' });
    await waitFor(() => expect(lights.drivenProvider).toBe('lifx'));
    fireEvent.click(screen.getByRole('button', { name: 'Test lights' }));
    await waitFor(() => expect(sentTo(api)).toContain('PUT /sims/lifx/v1/lights/id:d073d5000002/state'));
    expect(sentTo(api).join()).not.toContain('d073d5000000');

    fireEvent.click(screen.getByRole('button', { name: T.driverBrowser }));
    expect(readLocalSettings(FAN_EMAIL).sharedLightsDriver).toBe('browser');
    expect(screen.getByRole('button', { name: T.driverBrowser })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Test lights' }));
    await waitFor(() =>
      expect(sentTo(api)).toContain('PUT /sims/lifx/v1/lights/id:d073d5000000,id:d073d5000002/state'),
    );
  });

  test('an offline companion drives nothing: no prompt, the browser drives every selected bulb', async () => {
    const api = await renderPanel([companion({ online: false, lights: lanLights(1) })], {
      'PUT /sims/lifx/v1/lights/states': { status: 207, body: { results: [] } },
    });
    await screen.findByRole('list', { name: 'LIFX lights' });
    await waitFor(() => expect(lights.drivenProvider).toBe('lifx'));
    expect(screen.queryByRole('group', { name: 'Who drives shared lights' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Test lights' }));
    await waitFor(() =>
      expect(sentTo(api)).toContain('PUT /sims/lifx/v1/lights/id:d073d5000000,id:d073d5000002/state'),
    );
  });

  test('a companion coming online takes its bulb over at once', async () => {
    const api = await renderPanel([companion({ online: false, lights: lanLights(1) })], {
      'PUT /sims/lifx/v1/lights/states': { status: 207, body: { results: [] } },
    });
    await screen.findByRole('list', { name: 'LIFX lights' });
    await waitFor(() => expect(lights.drivenProvider).toBe('lifx'));
    // A fresh device list (the stream's devices event, or the 30 s refresh).
    act(() => storeCompanionDevices(FAN_EMAIL, [companion({ lights: lanLights(1) })]));
    act(() => {
      lights.playFlag('green');
    });
    await waitFor(() => expect(sentTo(api)).toContain('PUT /sims/lifx/v1/lights/id:d073d5000002/state'));
  });
});

describe('Test your lights with a companion online', () => {
  test('also asks the companions to play the flag; no "not connected" alert without browser lights', async () => {
    const api = stubApi({
      ...baseRoutes(fan),
      'POST /api/devices/test': { body: { success: true, devices: 1 } },
    });
    storeCompanionDevices(FAN_EMAIL, [companion()]);
    await renderWithLights(<TestFlags />);
    fireEvent.click(await screen.findByRole('button', { name: /yellow/i }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.route === 'POST /api/devices/test')?.body).toEqual({ state: 'yellow' }),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('with the companion offline nothing is sent to it, and without browser lights the alert shows', async () => {
    const api = stubApi({ ...baseRoutes(fan) });
    storeCompanionDevices(FAN_EMAIL, [companion({ online: false })]);
    await renderWithLights(<TestFlags />);
    fireEvent.click(await screen.findByRole('button', { name: /yellow/i }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(api.calls.map((c) => c.route)).not.toContain('POST /api/devices/test');
  });

  test('with every online companion paused, the page says its lights did not change', async () => {
    stubApi({ ...baseRoutes(fan), 'POST /api/devices/test': { body: { success: true, devices: 1 } } });
    storeCompanionDevices(FAN_EMAIL, [companion({ state: { ...STATE, paused: true } })]);
    await renderWithLights(<TestFlags />);
    fireEvent.click(await screen.findByRole('button', { name: /yellow/i }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your companion did not play Yellow flag: its lights are paused (Resume lights on its status page).',
    );
  });
});

const STATE = {
  bridgePort: 47961,
  paused: false,
  stream: 'following',
  message: null,
  showing: 'green',
} as const satisfies NonNullable<LinkedDevice['state']>;

describe('what the companion says of itself, on the dashboard', () => {
  test.each([
    [
      { ...STATE, paused: true },
      true,
      'Flaglight Companion Living-room PC: paused, its lights keep their look (Resume lights on its status page)',
    ],
    [{ ...STATE, stream: 'waiting' }, true, 'Flaglight Companion Living-room PC: waiting for a live session'],
    [
      { ...STATE, stream: 'reconnecting', message: 'Connection to the server lost: reconnecting.' },
      true,
      'Flaglight Companion Living-room PC: reconnecting (Connection to the server lost: reconnecting.)',
    ],
    [
      { ...STATE, stream: 'refused', message: 'Your free trial has ended.' },
      false,
      'Flaglight Companion Living-room PC: not following: Your free trial has ended.',
    ],
    [STATE, true, 'Flaglight Companion Living-room PC: following, drives 2 lights'],
    [
      { ...STATE, showing: 'green' },
      'replay',
      'Flaglight Companion Living-room PC: stays on the live race, not this replay; drives 2 lights',
    ],
  ] as const)('%j (online %s) reads "%s"', (state, online, line) => {
    const onReplay = online === 'replay';
    expect(companionLine(companion({ state, online: onReplay || online }), {}, onReplay)).toBe(line);
  });

  test('Test on this computer asks the port the companion reported (started with --port)', async () => {
    storeCompanionDevices(FAN_EMAIL, [companion({ state: STATE })]);
    const asked: string[] = [];
    const onlyThere = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      asked.push(`${init?.method ?? 'GET'} ${url}`);
      if (!url.startsWith('http://127.0.0.1:47961/')) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(url.endsWith('/api/status') ? STATUS : { success: true }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const result = await checkThisComputer(onlyThere, 1_000);
    expect(result.kind).toBe('tested');
    expect(asked).toContain('GET http://127.0.0.1:47961/api/status');
    expect(asked).toContain('POST http://127.0.0.1:47961/api/test');
    // The port that answered is asked first next time.
    expect(bridgePortsToAsk()[0]).toBe(47961);
  });
});
