import type { DeviceLight } from '@flaglight/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { companion } from '../../test/companions';
import { stubApi } from '../../test/fetch-stub';
import { createTestQueryClient } from '../../test/render-app';
import { CompanionBrandSection, MqttSection } from './CompanionBrandSection';
import { LAN_TEXTS } from './lan-texts';

afterEach(() => vi.restoreAllMocks());

const BRIDGE = 'http://127.0.0.1:47920';
const DESK: DeviceLight = { provider: 'home_assistant', id: 'light.desk', label: 'Desk', reachable: true };
const PORCH: DeviceLight = {
  provider: 'home_assistant',
  id: 'light.porch',
  label: 'Porch',
  reachable: false,
};
const STRIP: DeviceLight = { provider: 'wled', id: 'a0b1c2d3e401', label: 'TV strip', reachable: true };

function renderSection(node: React.ReactNode, routes: Parameters<typeof stubApi>[0]) {
  const api = stubApi(routes);
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
  return api;
}

const bridgeCalls = (api: ReturnType<typeof stubApi>) =>
  api.spy.mock.calls
    .map(([url]) => (url instanceof Request ? url.url : url.toString()))
    .filter((url) => url.startsWith(BRIDGE));

test("Home Assistant: how to set it up, and the companion's Home Assistant lights from the server only", async () => {
  const api = renderSection(
    <CompanionBrandSection provider="home_assistant" texts={LAN_TEXTS.homeAssistant} />,
    { 'GET /api/devices': { body: [companion({ lights: [DESK, PORCH, STRIP] })] } },
  );
  expect(screen.getByText(/Long-lived access tokens → Create token/)).toBeVisible();
  const list = await screen.findByRole('list', { name: LAN_TEXTS.homeAssistant.list });
  expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  expect(within(list).getByText('Desk')).toBeVisible();
  expect(screen.getByRole('button', { name: LAN_TEXTS.homeAssistant.diagnostics })).toBeEnabled();
  expect(bridgeCalls(api)).toEqual([]);
});

test('WLED: no device reported yet says so; with no companion linked it points to one', async () => {
  renderSection(<CompanionBrandSection provider="wled" texts={LAN_TEXTS.wled} />, {
    'GET /api/devices': { body: [companion({ lights: [DESK] })] },
  });
  expect(await screen.findByText(LAN_TEXTS.wled.none)).toBeVisible();
});

test('with no companion linked, a brand section says so', async () => {
  renderSection(<CompanionBrandSection provider="wled" texts={LAN_TEXTS.wled} />, {
    'GET /api/devices': { body: [] },
  });
  expect(await screen.findByText(LAN_TEXTS.noCompanion)).toBeVisible();
});

test('MQTT: the broker address, the topics and what the status page says', () => {
  render(<MqttSection />);
  expect(screen.getByText(/--mqtt mqtt:\/\/homeassistant.local:1883/)).toBeVisible();
  expect(screen.getByText(/flaglight\/<computer>_<code>\/flag/)).toBeVisible();
});
