import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AuthProvider } from '../src/auth/AuthProvider';
import { appRoutes } from '../src/routing/routes';

/**
 * How long to wait for a screen to appear: most screens are lazily loaded, and a test run compiles
 * each module on its first import, which can take over a second on a busy machine.
 */
export const SCREEN_WAIT = { timeout: 5_000 };

/** A query client for one test: no retries, so a stubbed failure shows at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Renders the whole app at a path, with whatever session storage holds. */
export function renderApp(path: string, routes: RouteObject[] = appRoutes) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}
