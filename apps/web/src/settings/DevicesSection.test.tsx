import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { buildPreferencesDocument } from '../../test/preferences';
import { createTestQueryClient } from '../../test/render-app';
import { DEVICES_TEXTS, DevicesSection, unlinkConfirmation } from './DevicesSection';

afterEach(() => vi.restoreAllMocks());

const PC = {
  id: 'dev-1',
  name: 'Living-room PC',
  platform: 'win32-x64',
  version: '1.2.3',
  linkedAt: '2026-11-25T14:00:00.000Z',
  lastSeenAt: '2026-11-25T14:05:00.000Z',
  online: true,
};

const PREFERENCES = {
  'GET /api/me/preferences': { body: buildPreferencesDocument(0) },
};

function renderSection() {
  return render(
    <QueryClientProvider client={createTestQueryClient()}>
      <DevicesSection />
    </QueryClientProvider>,
  );
}

test('with no companion, it explains how to link one', async () => {
  stubApi({ 'GET /api/devices': { body: [] } });
  renderSection();
  expect(await screen.findByText(DEVICES_TEXTS.empty)).toBeVisible();
});

test('lists each companion with platform, version, times and whether it is online now', async () => {
  stubApi({
    ...PREFERENCES,
    'GET /api/devices': {
      body: [PC, { ...PC, id: 'dev-2', name: 'Den Mac', online: false, lastSeenAt: null }],
    },
  });
  renderSection();
  const pc = await screen.findByRole('listitem', { name: 'Living-room PC' });
  for (const text of ['win32-x64', '1.2.3', 'Online now', 'Platform', 'Version', 'Linked', 'Last seen'])
    expect(within(pc).getByText(text)).toBeVisible();
  const mac = screen.getByRole('listitem', { name: 'Den Mac' });
  expect(within(mac).getByText('Offline')).toBeVisible();
  expect(within(mac).getByText(DEVICES_TEXTS.never)).toBeVisible();
  expect(within(mac).getByRole('button', { name: 'Unlink Den Mac' })).toBeEnabled();
});

test('Unlink asks first; confirmed, it unlinks that companion and the list is read again', async () => {
  let listed = [PC];
  const api = stubApi({
    ...PREFERENCES,
    'GET /api/devices': () => ({ body: listed }),
    'DELETE /api/devices/dev-1': () => {
      listed = [];
      return { body: { success: true } };
    },
  });
  renderSection();
  await userEvent.click(await screen.findByRole('button', { name: 'Unlink Living-room PC' }));
  const dialog = await screen.findByRole('dialog', { name: 'Unlink companion' });
  expect(dialog).toHaveTextContent(unlinkConfirmation('Living-room PC'));
  // Cancel unlinks nothing.
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(api.calls.filter((call) => call.route.startsWith('DELETE'))).toEqual([]);

  await userEvent.click(screen.getByRole('button', { name: 'Unlink Living-room PC' }));
  await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unlink' }));
  expect(await screen.findByText('Living-room PC was unlinked.')).toHaveAttribute('role', 'status');
  expect(await screen.findByText(DEVICES_TEXTS.empty)).toBeVisible();
  expect(api.calls.filter((call) => call.route.startsWith('DELETE')).map((call) => call.route)).toEqual([
    'DELETE /api/devices/dev-1',
  ]);
});

test('a failed unlink says so', async () => {
  stubApi({
    ...PREFERENCES,
    'GET /api/devices': { body: [PC] },
    'DELETE /api/devices/dev-1': {
      status: 500,
      body: { error: 'Internal server error', code: 'internal_error' },
    },
  });
  renderSection();
  await userEvent.click(await screen.findByRole('button', { name: 'Unlink Living-room PC' }));
  await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unlink' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(DEVICES_TEXTS.unlinkFailed);
});
