import type { LinkedDevice } from '@flaglight/contract';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { companion } from '../../test/companions';
import { stubApi } from '../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, renderWithLights } from '../../test/lights';
import { buildUser, seedSession } from '../../test/users';
import { LightControlPanel } from '../dashboard/panels/LightControlPanel';
import type { NanoleafPairing as PairingResult } from './bridge';
import { clearCompanionDevices } from './companion-store';
import { COMPANION_TEXTS as T } from './companion-texts';
import { NanoleafPairing } from './NanoleafPairing';

const fan = buildUser({ email: FAN_EMAIL });
const PAIR_URL = 'http://127.0.0.1:47920/api/nanoleaf/pair';
const HOLD = 'Hold the power button on your Nanoleaf controller for 5–7 seconds until the lights flash.';

beforeEach(() => {
  seedSession(fan);
  clearCompanionDevices();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

const bridgeCalls = (api: ReturnType<typeof stubApi>) =>
  api.spy.mock.calls
    .map(([url, init]) => ({ url: url instanceof Request ? url.url : url.toString(), init }))
    .filter(({ url }) => url.startsWith('http://127.0.0.1:47920'));

async function openCompanionTab(devices: LinkedDevice[], routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({ ...baseRoutes(fan), 'GET /api/devices': { body: devices }, ...routes });
  await renderWithLights(<LightControlPanel />);
  fireEvent.mouseDown(await screen.findByRole('tab', { name: T.tab }));
  await screen.findByRole('button', { name: T.nanoleafPair });
  return api;
}

/** A reply the test releases when it likes: the companion waits for the power button meanwhile. */
function deferredReply() {
  let release: (reply: { status?: number; body?: unknown }) => void = () => {};
  const reply = new Promise<{ status?: number; body?: unknown }>((resolve) => {
    release = resolve;
  });
  return { reply: () => reply, release: (r: { status?: number; body?: unknown }) => release(r) };
}

describe('Pair a Nanoleaf (Companion tab)', () => {
  test('asks nothing on load; the press explains the steps and waits for the companion, which names the device', async () => {
    const companionWait = deferredReply();
    const api = await openCompanionTab([companion()], { 'POST /api/nanoleaf/pair': companionWait.reply });
    expect(bridgeCalls(api)).toEqual([]);
    expect(screen.queryByText(HOLD)).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: T.nanoleafPair }));
    expect(screen.getByText(T.whyPermission)).toBeInTheDocument();
    expect(screen.getByText(HOLD)).toBeInTheDocument();
    expect(screen.getByText('Waiting for the controller: 60 s left.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: T.nanoleafWaitLabel })).toHaveAttribute('max', '60');
    expect(screen.getByRole('button', { name: T.nanoleafPair })).toBeDisabled();

    const calls = bridgeCalls(api);
    expect(calls.map((c) => `${c.init?.method} ${c.url}`)).toEqual([`POST ${PAIR_URL}`]);
    expect(JSON.parse(calls[0]!.init?.body as string)).toEqual({});
    // Nothing of the app's travels to the local bridge: no cookies, no token.
    expect(calls[0]!.init?.credentials).toBe('omit');
    expect(JSON.stringify(calls[0]!.init?.headers ?? {})).not.toMatch(/authorization/i);

    companionWait.release({ body: { success: true, name: 'Shapes Living room' } });
    expect(await screen.findByText(T.nanoleafPaired('Shapes Living room'))).toBeInTheDocument();
    expect(screen.queryByText(HOLD)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.tryAgain })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.nanoleafPair })).toBeEnabled();
  });

  test("a typed address goes to the companion as the controller's address", async () => {
    const api = await openCompanionTab([companion()], {
      'POST /api/nanoleaf/pair': { body: { success: true, name: 'Lines Office' } },
    });
    fireEvent.change(screen.getByRole('textbox', { name: T.nanoleafAddress }), {
      target: { value: ' 192.168.1.30:16021 ' },
    });
    fireEvent.click(screen.getByRole('button', { name: T.nanoleafPair }));
    expect(await screen.findByText(T.nanoleafPaired('Lines Office'))).toBeInTheDocument();
    expect(JSON.parse(bridgeCalls(api)[0]!.init?.body as string)).toEqual({ address: '192.168.1.30:16021' });
  });

  test("the companion's own error is shown with Try again, which pairs on the next press", async () => {
    const timedOut =
      'The Nanoleaf controller did not enter pairing mode in time. Hold its power button for 5–7 seconds until the lights flash, then try again.';
    let attempts = 0;
    const api = await openCompanionTab([companion()], {
      'POST /api/nanoleaf/pair': () =>
        ++attempts === 1
          ? { status: 409, body: { error: timedOut, code: 'conflict' } }
          : { body: { success: true, name: 'Canvas Hall' } },
    });
    fireEvent.click(screen.getByRole('button', { name: T.nanoleafPair }));
    expect(await screen.findByText(T.nanoleafRefused(timedOut))).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: T.tryAgain }));
    expect(screen.getByText(HOLD)).toBeInTheDocument();
    expect(await screen.findByText(T.nanoleafPaired('Canvas Hall'))).toBeInTheDocument();
    expect(bridgeCalls(api)).toHaveLength(2);
  });

  test('no companion running on this computer (or the local network refused) is a plain message with Try again', async () => {
    await openCompanionTab([companion()], { 'POST /api/nanoleaf/pair': new TypeError('Failed to fetch') });
    fireEvent.click(screen.getByRole('button', { name: T.nanoleafPair }));
    expect(await screen.findByText(T.nanoleafNoAnswer)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.tryAgain })).toBeEnabled();
  });

  test('a companion without Nanoleaf support is asked to be updated', async () => {
    await openCompanionTab([companion()]);
    fireEvent.click(screen.getByRole('button', { name: T.nanoleafPair }));
    expect(await screen.findByText(T.nanoleafUnsupported)).toBeInTheDocument();
  });

  test('without a linked companion there is nothing to pair with', async () => {
    stubApi({ ...baseRoutes(fan), 'GET /api/devices': { body: [] } });
    await renderWithLights(<LightControlPanel />);
    fireEvent.mouseDown(await screen.findByRole('tab', { name: T.tab }));
    expect(await screen.findByText(T.noneLinked)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.nanoleafPair })).not.toBeInTheDocument();
  });
});

test('the wait counts down the 60 s the companion gives the power button', async () => {
  vi.useFakeTimers();
  let finish: (result: PairingResult) => void = () => {};
  const pair = vi.fn(
    () =>
      new Promise<PairingResult>((resolve) => {
        finish = resolve;
      }),
  );
  render(<NanoleafPairing pair={pair} />);
  fireEvent.click(screen.getByRole('button', { name: T.nanoleafPair }));
  expect(pair).toHaveBeenCalledWith(undefined);
  act(() => {
    vi.advanceTimersByTime(15_000);
  });
  expect(screen.getByText('Waiting for the controller: 45 s left.')).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: T.nanoleafWaitLabel })).toHaveAttribute('value', '45');
  act(() => {
    vi.advanceTimersByTime(50_000);
  });
  expect(screen.getByText(T.nanoleafWaiting(0))).toBeInTheDocument();
  await act(async () => finish({ kind: 'paired', name: 'Elements Den' }));
  vi.useRealTimers();
  await waitFor(() => expect(screen.getByText(T.nanoleafPaired('Elements Den'))).toBeInTheDocument());
});
