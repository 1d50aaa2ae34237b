import type { DeviceLight } from '@flaglight/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { companion } from '../../test/companions';
import { stubApi } from '../../test/fetch-stub';
import { createTestQueryClient } from '../../test/render-app';
import { COMPANION_TEXTS } from '../companion/companion-texts';
import { LAN_TEXTS } from './lan-texts';
import { NanoleafSection } from './NanoleafSection';

afterEach(() => vi.restoreAllMocks());

const T = LAN_TEXTS.nanoleaf;
const BRIDGE = 'http://127.0.0.1:47920';
const SHAPES: DeviceLight = { provider: 'nanoleaf', id: 's1924comp01', label: 'Shapes Den', reachable: true };
const LINES: DeviceLight = { provider: 'nanoleaf', id: 's1924comp02', label: 'Lines Desk', reachable: false };
const BULB: DeviceLight = { provider: 'lifx_lan', id: 'd073d5000001', label: 'Lan bulb 1', reachable: true };

const bridgeCalls = (api: ReturnType<typeof stubApi>) =>
  api.spy.mock.calls
    .map(([url, init]) => ({ url: url instanceof Request ? url.url : url.toString(), init }))
    .filter(({ url }) => url.startsWith(BRIDGE));

function renderSection(routes: Parameters<typeof stubApi>[0]) {
  const api = stubApi(routes);
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <MemoryRouter>
        <NanoleafSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return api;
}

const status = (lights: unknown[]) => ({
  body: { version: '0.2.0', linked: true, stream: { state: 'following' }, lights },
});

test('with no companion linked, it says so and offers the download; it does not ask 127.0.0.1', async () => {
  const api = renderSection({ 'GET /api/devices': { body: [] } });
  expect(await screen.findByText(LAN_TEXTS.noCompanion)).toBeVisible();
  expect(screen.getByRole('link', { name: COMPANION_TEXTS.downloadWindows })).toHaveAttribute(
    'href',
    '/api/downloads/flaglight-setup',
  );
  expect(screen.getByRole('link', { name: COMPANION_TEXTS.downloadLinux })).toBeVisible();
  expect(screen.getByRole('link', { name: LAN_TEXTS.openDevices })).toHaveAttribute(
    'href',
    '/settings?section=devices',
  );
  expect(screen.queryByRole('button', { name: T.diagnostics })).toBeNull();
  expect(bridgeCalls(api)).toEqual([]);
});

test("lists the companion's Nanoleaf controllers from the server, connected or not, without asking 127.0.0.1", async () => {
  const api = renderSection({
    'GET /api/devices': { body: [companion({ lights: [SHAPES, LINES, BULB] })] },
  });
  const list = await screen.findByRole('list', { name: T.list });
  expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  const shapes = within(list).getByRole('listitem', { name: 'Shapes Den' });
  expect(within(shapes).getByText(LAN_TEXTS.connected)).toBeVisible();
  expect(within(shapes).getByText('Via Living-room PC')).toBeVisible();
  const lines = within(list).getByRole('listitem', { name: 'Lines Desk' });
  expect(within(lines).getByText(LAN_TEXTS.unreachable)).toBeVisible();
  expect(screen.getByRole('button', { name: COMPANION_TEXTS.nanoleafPair })).toBeEnabled();
  expect(bridgeCalls(api)).toEqual([]);
});

test('an offline companion shows its controllers as not reachable', async () => {
  renderSection({ 'GET /api/devices': { body: [companion({ online: false, lights: [SHAPES] })] } });
  const shapes = await screen.findByRole('listitem', { name: 'Shapes Den' });
  expect(within(shapes).getByText(LAN_TEXTS.unreachable)).toBeVisible();
  expect(within(shapes).getByText('Via Living-room PC (offline)')).toBeVisible();
});

test('with a companion but no controller, it says none is paired and offers pairing', async () => {
  renderSection({ 'GET /api/devices': { body: [companion({ lights: [BULB] })] } });
  expect(await screen.findByText(T.none)).toBeVisible();
  expect(screen.getByRole('button', { name: COMPANION_TEXTS.nanoleafPair })).toBeEnabled();
});

test('Forget asks first, then asks the companion on this computer, with no credentials, and reads the list again', async () => {
  let listed = [SHAPES, LINES];
  const api = renderSection({
    'GET /api/devices': () => ({ body: [companion({ lights: listed })] }),
    'POST /api/nanoleaf/forget': () => {
      listed = [LINES];
      return { body: { success: true, name: 'Shapes Den' } };
    },
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Forget Shapes Den' }));
  const dialog = await screen.findByRole('dialog', { name: T.forgetTitle });
  expect(dialog).toHaveTextContent(T.forgetConfirm('Shapes Den'));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(bridgeCalls(api)).toEqual([]);

  await userEvent.click(screen.getByRole('button', { name: 'Forget Shapes Den' }));
  await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: T.forget }));
  expect(await screen.findByText(T.forgotten('Shapes Den'))).toHaveAttribute('role', 'status');
  expect(screen.getByText(COMPANION_TEXTS.whyPermission)).toBeVisible();
  const calls = bridgeCalls(api);
  expect(calls.map(({ url }) => url)).toEqual([`${BRIDGE}/api/nanoleaf/forget`]);
  expect(calls[0]!.init).toMatchObject({ method: 'POST', credentials: 'omit', body: '{"id":"s1924comp01"}' });
  await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Shapes Den' })).toBeNull());
});

test.each([
  [
    { status: 404, body: { error: 'No Nanoleaf controller with this id is paired.', code: 'not_found' } },
    T.notPairedHere('Shapes Den'),
  ],
  [{ status: 404, body: { error: 'Not found', code: 'not_found' } }, T.forgetUnsupported],
  [{ status: 500, body: { error: 'Something went wrong' } }, T.forgetRefused('Something went wrong')],
  [new TypeError('Failed to fetch'), T.forgetNoAnswer],
])('a Forget the companion cannot do says why (%#)', async (reply, text) => {
  renderSection({
    'GET /api/devices': { body: [companion({ lights: [SHAPES] })] },
    'POST /api/nanoleaf/forget': reply,
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Forget Shapes Den' }));
  await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: T.forget }));
  expect(await screen.findByRole('alert')).toHaveTextContent(text);
  expect(screen.getByRole('listitem', { name: 'Shapes Den' })).toBeVisible();
});

test("Diagnostics asks the companion on this computer after the click and lists each controller's reachability and last colour", async () => {
  const api = renderSection({
    'GET /api/devices': { body: [companion({ lights: [SHAPES, LINES] })] },
    'GET /api/status': status([
      { ...SHAPES, lastColor: { name: 'Yellow', css: 'rgb(255 214 0)' }, driven: true },
      { ...LINES, lastColor: null, driven: true },
      { ...BULB, lastColor: { name: 'Green', css: 'rgb(0 200 0)' }, driven: true },
    ]),
  });
  const button = await screen.findByRole('button', { name: T.diagnostics });
  expect(bridgeCalls(api)).toEqual([]);
  await userEvent.click(button);
  const report = await screen.findByRole('status', { name: T.report });
  expect(report).toHaveTextContent(LAN_TEXTS.lightLine('Shapes Den', true, 'Yellow'));
  expect(report).toHaveTextContent(LAN_TEXTS.lightLine('Lines Desk', false, null));
  expect(report).not.toHaveTextContent('Lan bulb 1');
  expect(screen.getByText(COMPANION_TEXTS.whyPermission)).toBeVisible();
  expect(bridgeCalls(api).map(({ url, init }) => [url, init?.credentials])).toEqual([
    [`${BRIDGE}/api/status`, 'omit'],
  ]);
});

test('Diagnostics says when the companion is not running on this computer, or drives no controller', async () => {
  let running = false;
  renderSection({
    'GET /api/devices': { body: [companion({ lights: [SHAPES] })] },
    'GET /api/status': () =>
      running ? status([{ ...BULB, lastColor: null }]) : new TypeError('Failed to fetch'),
  });
  await userEvent.click(await screen.findByRole('button', { name: T.diagnostics }));
  expect(await screen.findByRole('status', { name: T.report })).toHaveTextContent(LAN_TEXTS.notRunning);
  running = true;
  await userEvent.click(screen.getByRole('button', { name: T.diagnostics }));
  expect(await screen.findByRole('status', { name: T.report })).toHaveTextContent(T.diagnosticsNone);
});
