import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { DEMO_CONFIG, stubApi } from '../../test/fetch-stub';
import { renderApp, SCREEN_WAIT } from '../../test/render-app';
import { buildUser, seedSession } from '../../test/users';
import { LINK_PAGE_TEXTS } from './LinkDevicePage';

afterEach(() => vi.restoreAllMocks());

const PENDING = {
  name: 'Living-room PC',
  platform: 'win32-x64',
  version: '1.2.3',
  userCode: 'BCDF-GHJK',
  expiresAt: '2026-11-25T15:00:00.000Z',
};

test('shows which companion asks, and Link approves its code', async () => {
  seedSession(buildUser(), 'session-1');
  const api = stubApi({
    'GET /api/device/pending': { body: PENDING },
    'POST /api/device/approve': { body: { success: true } },
  });
  renderApp('/link?code=bcdf-ghjk');
  expect(await screen.findByText(LINK_PAGE_TEXTS.question, {}, SCREEN_WAIT)).toBeVisible();
  for (const text of ['Living-room PC', 'win32-x64', '1.2.3', 'BCDF-GHJK'])
    expect(screen.getByText(text)).toBeVisible();
  await userEvent.click(screen.getByRole('button', { name: 'Link' }));
  expect(await screen.findByText(LINK_PAGE_TEXTS.linked)).toHaveAttribute('role', 'status');
  const approvals = api.calls.filter((call) => call.route === 'POST /api/device/approve');
  expect(approvals.map((call) => [call.body, call.headers.Authorization])).toEqual([
    [{ code: 'BCDF-GHJK' }, 'Bearer session-1'],
  ]);
});

test('Cancel denies the code and says the companion was not linked', async () => {
  seedSession(buildUser(), 'session-2');
  const api = stubApi({
    'GET /api/device/pending': { body: PENDING },
    'POST /api/device/deny': { body: { success: true } },
  });
  renderApp('/link?code=BCDF-GHJK');
  await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }, SCREEN_WAIT));
  expect(await screen.findByText(LINK_PAGE_TEXTS.cancelled)).toBeVisible();
  expect(api.calls.filter((call) => call.route === 'POST /api/device/approve')).toEqual([]);
  expect(api.calls.filter((call) => call.route === 'POST /api/device/deny').map((c) => c.body)).toEqual([
    { code: 'BCDF-GHJK' },
  ]);
});

test.each([
  ['an expired code', 'expired_token', LINK_PAGE_TEXTS.expired],
  ['an unknown code', 'not_found', LINK_PAGE_TEXTS.unknown],
])('%s says so', async (_what, code, text) => {
  seedSession(buildUser(), 'session-3');
  stubApi({ 'GET /api/device/pending': { status: 404, body: { error: 'x', code } } });
  renderApp('/link?code=BCDF-GHJK');
  expect(await screen.findByRole('alert', {}, SCREEN_WAIT)).toHaveTextContent(text);
  expect(screen.queryByRole('button', { name: 'Link' })).toBeNull();
});

test('without a code in the link, a field asks for it; a malformed one is refused before any call', async () => {
  seedSession(buildUser(), 'session-4');
  const api = stubApi({ 'GET /api/device/pending': { body: PENDING } });
  const { router } = renderApp('/link');
  const field = await screen.findByLabelText(LINK_PAGE_TEXTS.codeLabel, {}, SCREEN_WAIT);
  await userEvent.type(field, 'BCDF-0000');
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(LINK_PAGE_TEXTS.badCode);
  expect(api.calls.filter((call) => call.route.includes('/api/device'))).toEqual([]);
  await userEvent.clear(field);
  await userEvent.type(field, 'bcdf ghjk');
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByText(LINK_PAGE_TEXTS.question)).toBeVisible();
  expect(router.state.location).toMatchObject({ pathname: '/link', search: '?code=BCDF-GHJK' });
});

test('signed out, the link goes through sign-in and comes back to the same code', async () => {
  let bots = 0;
  const user = buildUser();
  stubApi({
    'GET /api/config': { body: DEMO_CONFIG },
    'POST /sims/turnstile/token': () => ({ body: { token: `bot-${++bots}` } }),
    'POST /auth/login': { body: { token: 'session-5', user } },
    'GET /api/auth/me': { body: { user } },
    'GET /api/device/pending': { body: PENDING },
  });
  const { router } = renderApp('/link?code=BCDF-GHJK');
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'), SCREEN_WAIT);
  expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/link?code=BCDF-GHJK')}`);
  await userEvent.type(await screen.findByLabelText('Email', {}, SCREEN_WAIT), user.email);
  await userEvent.type(screen.getByLabelText('Password'), 'Sunday!Race1');
  const box = await screen.findByRole('checkbox', { name: 'Verify you are human' });
  await userEvent.click(box);
  await waitFor(() => expect(box).toBeEnabled());
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  expect(await screen.findByText(LINK_PAGE_TEXTS.question, {}, SCREEN_WAIT)).toBeVisible();
  expect(router.state.location).toMatchObject({ pathname: '/link', search: '?code=BCDF-GHJK' });
});
