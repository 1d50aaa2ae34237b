import { TRACKSIDE } from '@flaglight/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { paced } from '../../../../../scripts/test-pace.mjs';
import { stubApi } from '../../../test/fetch-stub';
import { baseRoutes, FAN_EMAIL, lifxBulbs, renderWithLights } from '../../../test/lights';
import { buildUser, seedSession } from '../../../test/users';
import { readLocalSettings } from '../local-settings';
import { SettingsPage } from '../SettingsPage';
import { LOOKS_TEXTS as T } from './looks-texts';

const fan = buildUser({ email: FAN_EMAIL });

beforeEach(() => seedSession(fan));
afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

test(
  'once LIFX is connected, No flashing is offered beside it and is the same switch as in Flags & effects',
  { timeout: paced(30_000) },
  async () => {
    stubApi({ ...baseRoutes(fan), 'GET /sims/lifx/v1/lights/all': { body: lifxBulbs(2) } });
    await renderWithLights(<SettingsPage />);
    const field = await screen.findByLabelText<HTMLInputElement>('LIFX API token');
    fireEvent.change(field, { target: { value: 'demo-token' } });
    const connect = screen.getByRole('button', { name: 'Connect' });
    await waitFor(() => expect(connect).toBeEnabled());
    fireEvent.click(connect);
    const lifx = screen.getByRole('region', { name: 'LIFX Connection' });
    const beside = await within(lifx).findByRole(
      'switch',
      { name: T.noFlashing },
      { timeout: paced(15_000) },
    );
    expect(beside).not.toBeChecked();
    expect(within(lifx).getByRole('link', { name: T.moreLooks })).toHaveAttribute(
      'href',
      '/settings?section=looks',
    );

    fireEvent.click(beside);
    expect(beside).toBeChecked();
    // Only the switch: every flag keeps Trackside's look.
    expect(readLocalSettings(FAN_EMAIL).looks).toEqual({ ...TRACKSIDE, noFlashing: true });

    fireEvent.click(screen.getByRole('button', { name: 'Flags & effects' }));
    const section = screen.getByRole('region', { name: 'Flags & effects' });
    const inSection = within(section).getByRole('switch', { name: T.noFlashing });
    expect(inSection).toBeChecked();
    fireEvent.click(inSection);
    expect(beside).not.toBeChecked();
    expect(readLocalSettings(FAN_EMAIL).looks?.noFlashing).toBe(false);
  },
);
