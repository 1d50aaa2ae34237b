import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { DEMO_CONFIG, stubApi } from '../test/fetch-stub';
import { SCREEN_WAIT } from '../test/render-app';
import { buildUser, seedSession } from '../test/users';
import { App } from './App';

beforeEach(() => {
  window.location.hash = '#/';
});
afterEach(() => vi.restoreAllMocks());

test('signed out, the landing page asks the server nothing', async () => {
  const api = stubApi({});
  render(<App />);
  expect(await screen.findByRole('heading', { level: 1, name: /when the flag flies/i })).toBeInTheDocument();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(api.calls).toEqual([]);
});

test('signed in, the dashboard renders with its query client and the configuration is asked for once', async () => {
  const user = buildUser({ plan: 'lifetime' });
  seedSession(user);
  const api = stubApi({
    'GET /api/config': { body: DEMO_CONFIG },
    'GET /api/auth/me': { body: { user } },
  });
  render(<App />);
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SCREEN_WAIT),
  ).toBeInTheDocument();
  expect(api.calls.filter((call) => call.route === 'GET /api/config')).toHaveLength(1);
});
