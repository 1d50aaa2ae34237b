import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AuthProvider } from '../src/auth/AuthProvider';
import { DEMO_CONFIG } from './fetch-stub';
import { createTestQueryClient } from './render-app';

/** Test helpers for the lights (component tests stub the HTTP answers at window.fetch). */

export const FAN_EMAIL = 'fan@example.com';

/** Renders a screen under the providers App.tsx mounts (auth, query, lights); /settings is a stand-in. */
export async function renderWithLights(ui: ReactElement) {
  const { LightsProvider } = await import('../src/lights/LightsProvider');
  const router = createMemoryRouter(
    [
      { path: '/settings', element: <p>Settings page</p> },
      { path: '*', element: ui },
    ],
    { initialEntries: ['/screen'] },
  );
  const view = render(
    <QueryClientProvider client={createTestQueryClient()}>
      <AuthProvider>
        <LightsProvider>
          <RouterProvider router={router} />
        </LightsProvider>
      </AuthProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}

/** LIFX bulbs as `GET /lights/all` answers them. */
export function lifxBulbs(count: number, offline: number[] = []) {
  return Array.from({ length: count }, (_, i) => ({
    id: `d073d5${String(i).padStart(6, '0')}`,
    label: `Bulb ${i + 1}`,
    connected: !offline.includes(i),
    power: 'on',
    group: { id: 'g', name: i % 2 ? 'Office' : 'Living Room' },
    location: { id: 'l', name: 'Home' },
  }));
}

export function hueLights(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: `hue-${i + 1}`,
    name: `Hue ${i + 1}`,
    type: 'light',
  }));
}

/** Govee cloud lights as `GET /api/govee/lights` answers them. */
export function goveeLights(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const hex = (i + 1).toString(16).padStart(2, '0').toUpperCase();
    return {
      id: `7A:4B:D4:AD:FC:${hex}:C0:${hex}`,
      label: `Govee ${i + 1}`,
      name: `Govee ${i + 1}`,
      type: 'H6159',
      connected: true,
    };
  });
}

/** The answers every signed-in screen asks for. */
export function baseRoutes(user: unknown) {
  return {
    'GET /api/config': { body: DEMO_CONFIG },
    'GET /api/auth/me': { body: { user } },
    'GET /api/license/status': { body: { hasActiveLicense: false, licenseDetails: null } },
    'GET /auth/hue/status': { body: { connected: false, hasApplicationKey: false } },
  };
}
