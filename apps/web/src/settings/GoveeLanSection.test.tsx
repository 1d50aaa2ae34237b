import type { DeviceLight } from '@flaglight/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { companion } from '../../test/companions';
import { stubApi } from '../../test/fetch-stub';
import { createTestQueryClient } from '../../test/render-app';
import { COMPANION_TEXTS } from '../companion/companion-texts';
import { GoveeLanSection } from './GoveeLanSection';
import { LAN_TEXTS } from './lan-texts';

afterEach(() => vi.restoreAllMocks());

const T = LAN_TEXTS.goveeLan;
const BRIDGE = 'http://127.0.0.1:47920';
const STRIP: DeviceLight = {
  provider: 'govee_lan',
  id: 'AA:BB:CC:DD:EE:FF:00:01',
  label: 'TV strip',
  reachable: true,
};
const LAMP: DeviceLight = {
  provider: 'govee_lan',
  id: 'AA:BB:CC:DD:EE:FF:00:02',
  label: 'Floor lamp',
  reachable: false,
};
const SHAPES: DeviceLight = { provider: 'nanoleaf', id: 's1924comp01', label: 'Shapes Den', reachable: true };

const bridgeCalls = (api: ReturnType<typeof stubApi>) =>
  api.spy.mock.calls
    .map(([url]) => (url instanceof Request ? url.url : url.toString()))
    .filter((url) => url.startsWith(BRIDGE));

function renderSection(routes: Parameters<typeof stubApi>[0]) {
  const api = stubApi(routes);
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <MemoryRouter>
        <GoveeLanSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return api;
}

test('with no companion linked, it says so, offers the download and points to Govee Cloud; it does not ask 127.0.0.1', async () => {
  const api = renderSection({ 'GET /api/devices': { body: [] } });
  expect(await screen.findByText(LAN_TEXTS.noCompanion)).toBeVisible();
  expect(screen.getByRole('link', { name: COMPANION_TEXTS.downloadWindows })).toBeVisible();
  expect(screen.getByText(T.cloudNote)).toBeVisible();
  expect(bridgeCalls(api)).toEqual([]);
});

test("lists the companion's Govee LAN lights from the server, connected or not, without asking 127.0.0.1", async () => {
  const api = renderSection({ 'GET /api/devices': { body: [companion({ lights: [STRIP, LAMP, SHAPES] })] } });
  const list = await screen.findByRole('list', { name: T.list });
  expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  expect(
    within(within(list).getByRole('listitem', { name: 'TV strip' })).getByText(LAN_TEXTS.connected),
  ).toBeVisible();
  expect(
    within(within(list).getByRole('listitem', { name: 'Floor lamp' })).getByText(LAN_TEXTS.unreachable),
  ).toBeVisible();
  expect(screen.queryByText(T.lanControl)).toBeNull();
  expect(screen.getByText(T.cloudNote)).toBeVisible();
  expect(bridgeCalls(api)).toEqual([]);
});

test('with none found, it gives the LAN Control advice', async () => {
  renderSection({ 'GET /api/devices': { body: [companion({ lights: [SHAPES] })] } });
  expect(await screen.findByText(T.none)).toBeVisible();
  expect(screen.getByText(T.lanControl)).toBeVisible();
  expect(T.lanControl).toMatch(/LAN Control in the Govee Home app for each device/);
});

test('Diagnostics, after the click, lists the Govee LAN lights of the companion on this computer only', async () => {
  const api = renderSection({
    'GET /api/devices': { body: [companion({ lights: [STRIP, LAMP] })] },
    'GET /api/status': {
      body: {
        version: '0.2.0',
        linked: true,
        lights: [
          { ...STRIP, lastColor: { name: 'Red', css: 'rgb(230 0 0)' } },
          { ...LAMP, lastColor: null },
          { ...SHAPES, lastColor: { name: 'Green', css: 'rgb(0 200 0)' } },
        ],
      },
    },
  });
  const button = await screen.findByRole('button', { name: T.diagnostics });
  expect(bridgeCalls(api)).toEqual([]);
  await userEvent.click(button);
  const report = await screen.findByRole('status', { name: T.report });
  expect(report).toHaveTextContent(LAN_TEXTS.lightLine('TV strip', true, 'Red'));
  expect(report).toHaveTextContent(LAN_TEXTS.lightLine('Floor lamp', false, null));
  expect(report).not.toHaveTextContent('Shapes Den');
  expect(bridgeCalls(api)).toEqual([`${BRIDGE}/api/status`]);
});

test('Diagnostics says when the companion is not running here, and gives the advice when it finds no Govee light', async () => {
  let running = false;
  renderSection({
    'GET /api/devices': { body: [companion({ lights: [STRIP] })] },
    'GET /api/status': () =>
      running ? { body: { version: '0.2.0', linked: false, lights: [] } } : new TypeError('Failed to fetch'),
  });
  await userEvent.click(await screen.findByRole('button', { name: T.diagnostics }));
  expect(await screen.findByRole('status', { name: T.report })).toHaveTextContent(LAN_TEXTS.notRunning);
  running = true;
  await userEvent.click(screen.getByRole('button', { name: T.diagnostics }));
  const report = await screen.findByRole('status', { name: T.report });
  expect(report).toHaveTextContent(T.diagnosticsNone);
  expect(report).toHaveTextContent(T.lanControl);
  expect(report).toHaveTextContent(LAN_TEXTS.notLinked);
});
