import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { renderApp } from '../../test/render-app';
import { seedSession } from '../../test/users';
import { appRoutes } from '../routing/routes';

function FailingHelp(): never {
  throw new Error('help screen failed');
}

/** The app's own routes with the Help screen swapped for one that throws as it renders. */
function withFailingHelp(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    if (route.path === 'help') return { ...route, element: <FailingHelp /> };
    return route.children ? { ...route, children: withFailingHelp(route.children) } : route;
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

test('a screen that throws shows the boundary inside the app; Go Home leaves it', async () => {
  seedSession();
  const { router } = renderApp('/help', withFailingHelp(appRoutes));
  expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Go Home' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
  await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
});
