import { PutPreferencesBodySchema, type Preferences } from '@flaglight/contract';
import { COLOR_PRESETS, TRACKSIDE } from '@flaglight/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../../scripts/test-pace.mjs';
import { stubApi } from '../../../test/fetch-stub';
import { baseRoutes } from '../../../test/lights';
import { buildPreferencesDocument } from '../../../test/preferences';
import { renderApp, SCREEN_WAIT } from '../../../test/render-app';
import { buildUser, seedSession } from '../../../test/users';
import { loadSettingsPage } from '../../routing/lazy-screens';
import { SAVE_TEXTS } from '../preferences-save-state';
import { LOOKS_TEXTS as T } from './looks-texts';

const fan = buildUser({ plan: 'lifetime' });

// Settings is a lazy screen: its first import can take seconds on a busy machine.
beforeAll(() => loadSettingsPage(), paced(60_000));
beforeEach(() => seedSession(fan));
afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

/** The account at its boundary: every write is checked against the contract, as the server does. */
function stubAccount(options: { failWrites?: boolean } = {}) {
  let version = 1;
  let stored: Preferences = buildPreferencesDocument(1).preferences;
  const writes: Preferences[] = [];
  const api = stubApi({
    ...baseRoutes(fan),
    'GET /api/devices': { body: [] },
    'GET /api/me/preferences': () => ({ body: { version, preferences: stored, updatedAt: null } }),
    'PUT /api/me/preferences': (body) => {
      const parsed = PutPreferencesBodySchema.parse(body);
      writes.push(parsed.preferences);
      if (options.failWrites) return { status: 503, body: { error: 'Down for a moment' } };
      version += 1;
      stored = parsed.preferences;
      return { body: { version, preferences: stored, updatedAt: null } };
    },
  });
  return { api, writes, stored: () => stored };
}

async function openSection() {
  renderApp('/settings?section=looks');
  return screen.findByRole('region', { name: 'Flags & effects' }, { timeout: 2 * SCREEN_WAIT.timeout });
}

const card = (section: HTMLElement, name: string) => within(section).getByRole('region', { name });

describe('Settings → Flags & effects', { timeout: paced(30_000) }, () => {
  test('shows Trackside to an account that never chose, and saves a red in blue at 40 % steady and a fastest lap left alone', async () => {
    const account = stubAccount();
    const section = await openSection();
    const red = card(section, 'Red flag');
    expect(within(red).getByRole('combobox', { name: 'Red flag effect' })).toHaveValue('strobe');
    expect(within(red).getByRole('spinbutton', { name: 'Red flag brightness in percent' })).toHaveValue(100);

    await userEvent.click(within(red).getByRole('radio', { name: 'Red flag colour blue' }));
    const brightness = within(red).getByRole('spinbutton', { name: 'Red flag brightness in percent' });
    await userEvent.clear(brightness);
    await userEvent.type(brightness, '40');
    await userEvent.selectOptions(within(red).getByRole('combobox', { name: 'Red flag effect' }), 'steady');
    const fastest = card(section, 'Fastest lap');
    await userEvent.click(within(fastest).getByRole('checkbox', { name: `Fastest lap: ${T.leave}` }));
    expect(within(fastest).getByText(T.leaveNote)).toBeVisible();

    await waitFor(() => expect(account.stored().looks?.flags.fastest_lap).toEqual({ kind: 'leave' }), {
      timeout: paced(3000),
    });
    expect(account.stored().looks?.flags.red).toEqual({
      ...TRACKSIDE.flags.red,
      color: COLOR_PRESETS.blue,
      brightness: 40,
      effect: { kind: 'steady' },
    });
    expect(account.stored().looks?.flags.green).toEqual(TRACKSIDE.flags.green);
  });

  test('a value the contract refuses is marked beside its field in its words, and never sent', async () => {
    const account = stubAccount();
    const section = await openSection();
    const yellow = card(section, 'Yellow flag');
    fireEvent.change(within(yellow).getByRole('spinbutton', { name: 'Yellow flag brightness in percent' }), {
      target: { value: '0' },
    });
    expect(within(yellow).getByText('Brightness (%): must be a whole percent from 1 to 100')).toBeVisible();
    expect(
      within(yellow).getByRole('spinbutton', { name: 'Yellow flag brightness in percent' }),
    ).toHaveAttribute('aria-invalid', 'true');
    expect(within(section).getByRole('alert')).toHaveTextContent(T.notSaved);

    fireEvent.change(
      within(yellow).getByRole('spinbutton', { name: 'Yellow flag effect length in seconds' }),
      {
        target: { value: '31' },
      },
    );
    expect(
      within(yellow).getByText(
        "Effect length (seconds): must be at most 30000 ms (the longest yellow's effect may run before its look settles)",
      ),
    ).toBeVisible();
    fireEvent.change(
      within(yellow).getByRole('spinbutton', { name: 'Yellow flag effect length in seconds' }),
      {
        target: { value: '0.5' },
      },
    );
    expect(
      within(yellow).getByText('Effect length (seconds): must be at least 1000 ms for the strobe'),
    ).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(account.writes).toEqual([]);

    // Fixed: the errors go and the look is saved.
    fireEvent.change(within(yellow).getByRole('spinbutton', { name: 'Yellow flag brightness in percent' }), {
      target: { value: '70' },
    });
    fireEvent.change(
      within(yellow).getByRole('spinbutton', { name: 'Yellow flag effect length in seconds' }),
      {
        target: { value: '2' },
      },
    );
    expect(within(section).queryByRole('alert')).toBeNull();
    await waitFor(() =>
      expect(account.stored().looks?.flags.yellow).toMatchObject({ brightness: 70, effectMs: 2000 }),
    );
  });

  test('choosing an effect brings the length within what it needs', async () => {
    const account = stubAccount();
    const section = await openSection();
    const green = card(section, 'Green flag');
    await userEvent.selectOptions(
      within(green).getByRole('combobox', { name: 'Green flag effect' }),
      'pulse',
    );
    const pulses = within(green).getByRole('spinbutton', { name: 'Green flag pulses' });
    expect(pulses).toHaveValue(3);
    await waitFor(() =>
      expect(account.stored().looks?.flags.green).toMatchObject({ effect: { kind: 'pulse', count: 3 } }),
    );
    fireEvent.change(pulses, { target: { value: '10' } });
    await waitFor(() =>
      expect(account.stored().looks?.flags.green).toMatchObject({
        effect: { kind: 'pulse', count: 10 },
        effectMs: 5000,
      }),
    );
  });

  test('no flashing and the brightness cap are saved with the looks', async () => {
    const account = stubAccount();
    const section = await openSection();
    await userEvent.click(within(section).getByRole('switch', { name: T.noFlashing }));
    const cap = within(section).getByRole('spinbutton', { name: T.cap });
    await userEvent.clear(cap);
    await userEvent.type(cap, '35');
    await waitFor(() =>
      expect(account.stored().looks).toMatchObject({ noFlashing: true, brightnessCap: 35 }),
    );
  });

  test('the sessions, after green and the session end are saved as the follow settings', async () => {
    const account = stubAccount();
    const section = await openSection();
    await userEvent.click(within(section).getByRole('checkbox', { name: 'Practice' }));
    await userEvent.click(within(section).getByRole('radio', { name: /Dim it/ }));
    await userEvent.click(within(section).getByRole('radio', { name: /As it was/ }));
    expect(within(section).getByText(T.asItWasNote)).toBeVisible();
    await waitFor(() =>
      expect(account.stored().lightFollow).toEqual({
        sessions: ['qualifying', 'sprint_qualifying', 'sprint', 'race'],
        afterGreen: { action: 'dim', afterSeconds: 60 },
        sessionEnd: 'as-it-was',
      }),
    );
    const seconds = within(section).getByRole('spinbutton', { name: T.afterGreenSeconds });
    fireEvent.change(seconds, { target: { value: '2' } });
    expect(
      within(section).getByText(`${T.afterGreenSeconds}: must be a whole number of seconds from 5 to 3600`),
    ).toBeVisible();
  });

  test('a change the account did not take is shown beside the looks, with Retry', async () => {
    stubAccount({ failWrites: true });
    const section = await openSection();
    await userEvent.click(
      within(card(section, 'Green flag')).getByRole('radio', { name: 'Green flag colour blue' }),
    );
    expect(await within(section).findByText(SAVE_TEXTS.title.looks, {}, { timeout: 3000 })).toBeVisible();
    expect(within(section).getByRole('button', { name: SAVE_TEXTS.retry })).toBeVisible();
  });
});
