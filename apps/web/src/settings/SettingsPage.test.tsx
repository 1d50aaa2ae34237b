import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { companion } from '../../test/companions';
import { stubApi } from '../../test/fetch-stub';
import { baseRoutes } from '../../test/lights';
import { renderApp, SCREEN_WAIT } from '../../test/render-app';
import { buildUser, seedSession } from '../../test/users';
import { DEVICES_TEXTS } from './DevicesSection';
import { LAN_TEXTS } from './lan-texts';

const fan = buildUser({ plan: 'lifetime' });

beforeEach(() => seedSession(fan));
afterEach(() => vi.restoreAllMocks());

const bridgeCalls = (api: ReturnType<typeof stubApi>) =>
  api.spy.mock.calls
    .map(([url]) => (url instanceof Request ? url.url : url.toString()))
    .filter((url) => url.startsWith('http://127.0.0.1:47920'));

test('Nanoleaf and Govee (LAN) are collapsible sections; with no companion, Devices opens the Devices section', async () => {
  const api = stubApi({ ...baseRoutes(fan), 'GET /api/devices': { body: [] } });
  renderApp('/settings');
  const nanoleaf = await screen.findByRole('button', { name: 'Nanoleaf' }, SCREEN_WAIT);
  expect(nanoleaf).toHaveAttribute('aria-expanded', 'false');
  expect(screen.getByRole('button', { name: 'Govee (LAN)' })).toHaveAttribute('aria-expanded', 'false');

  await userEvent.click(nanoleaf);
  const section = screen.getByRole('region', { name: 'Nanoleaf' });
  expect(await within(section).findByText(LAN_TEXTS.noCompanion)).toBeVisible();
  await userEvent.click(within(section).getByRole('link', { name: LAN_TEXTS.openDevices }));
  expect(screen.getByRole('button', { name: 'Devices' })).toHaveAttribute('aria-expanded', 'true');
  expect(await screen.findByText(DEVICES_TEXTS.empty)).toBeVisible();
  expect(bridgeCalls(api)).toEqual([]);
});

test('?section=govee-lan opens Govee (LAN) with the lights the companion reports, without asking 127.0.0.1', async () => {
  const api = stubApi({
    ...baseRoutes(fan),
    'GET /api/devices': {
      body: [
        companion({
          lights: [
            { provider: 'govee_lan', id: 'AA:BB:CC:DD:EE:FF:00:01', label: 'TV strip', reachable: true },
          ],
        }),
      ],
    },
  });
  renderApp('/settings?section=govee-lan');
  const section = await screen.findByRole('region', { name: 'Govee (LAN)' }, SCREEN_WAIT);
  expect(await within(section).findByRole('listitem', { name: 'TV strip' })).toBeVisible();
  expect(within(section).getByText(LAN_TEXTS.goveeLan.cloudNote)).toBeVisible();
  expect(bridgeCalls(api)).toEqual([]);
});
