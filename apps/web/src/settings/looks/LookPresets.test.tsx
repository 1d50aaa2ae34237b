import { PutPreferencesBodySchema, exportLooksFile, type Preferences } from '@flaglight/contract';
import { CALM, NIGHT_RACE, TRACKSIDE } from '@flaglight/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../../scripts/test-pace.mjs';
import { stubApi } from '../../../test/fetch-stub';
import { baseRoutes } from '../../../test/lights';
import { buildPreferencesDocument } from '../../../test/preferences';
import { renderApp, SCREEN_WAIT } from '../../../test/render-app';
import { buildUser, seedSession } from '../../../test/users';
import { loadSettingsPage } from '../../routing/lazy-screens';
import { downloadLooksFile, looksFileName, readLooksFile } from './looks-file-io';
import { LOOKS_TEXTS as T } from './looks-texts';

const fan = buildUser({ plan: 'lifetime' });

// Settings is a lazy screen: its first import can take seconds on a busy machine.
beforeAll(() => loadSettingsPage(), paced(60_000));
beforeEach(() => seedSession(fan));
afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

function stubAccount(looks?: Preferences['looks']) {
  let version = 1;
  let stored: Preferences = buildPreferencesDocument(1, looks ? { looks } : {}).preferences;
  stubApi({
    ...baseRoutes(fan),
    'GET /api/devices': { body: [] },
    'GET /api/me/preferences': () => ({ body: { version, preferences: stored, updatedAt: null } }),
    'PUT /api/me/preferences': (body) => {
      stored = PutPreferencesBodySchema.parse(body).preferences;
      version += 1;
      return { body: { version, preferences: stored, updatedAt: null } };
    },
  });
  return { stored: () => stored };
}

async function openSection() {
  renderApp('/settings?section=looks');
  return screen.findByRole('region', { name: 'Flags & effects' }, { timeout: 2 * SCREEN_WAIT.timeout });
}

describe('presets and looks files', { timeout: paced(30_000) }, () => {
  test('a preset is one press; the one in use is marked; Reset to Trackside brings SPEC back', async () => {
    const account = stubAccount();
    const section = await openSection();
    const trackside = within(section).getByRole('button', { name: /^Trackside/ });
    expect(trackside).toHaveAttribute('aria-pressed', 'true');
    expect(within(section).getByRole('button', { name: T.reset })).toBeDisabled();

    await userEvent.click(within(section).getByRole('button', { name: /^Night race/ }));
    await waitFor(() => expect(account.stored().looks).toEqual(NIGHT_RACE));
    expect(within(section).getByRole('button', { name: /^Night race/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      within(within(section).getByRole('region', { name: 'Fastest lap' })).getByText(T.leaveNote),
    ).toBeVisible();

    // An edit makes it the fan's own set; Reset goes back to Trackside.
    await userEvent.click(
      within(within(section).getByRole('region', { name: 'Green flag' })).getByRole('radio', {
        name: 'Green flag colour blue',
      }),
    );
    expect(await within(section).findByText(T.custom)).toBeVisible();
    await userEvent.click(within(section).getByRole('button', { name: T.reset }));
    await waitFor(() => expect(account.stored().looks).toEqual(TRACKSIDE));
  });

  test('a looks file is imported; a file that is not one says why where the fan imported it', async () => {
    const account = stubAccount();
    const section = await openSection();
    const input = within(section).getByLabelText(T.importInput);
    const good = new File([exportLooksFile('Sofa mode', CALM)], 'sofa.json', { type: 'application/json' });
    await userEvent.upload(input, good);
    expect(await within(section).findByRole('status')).toHaveTextContent(T.imported('Sofa mode'));
    await waitFor(() => expect(account.stored().looks).toEqual(CALM));

    const bad = JSON.parse(exportLooksFile('Bad', CALM)) as {
      looks: { flags: { red: { color: { hue: number } } } };
    };
    bad.looks.flags.red.color.hue = 400;
    await userEvent.upload(input, new File([JSON.stringify(bad)], 'bad.json', { type: 'application/json' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'looks.flags.red.color.hue: must be 0 to 360',
    );
    await userEvent.upload(input, new File(['not json'], 'notes.json', { type: 'application/json' }));
    await waitFor(() => expect(within(section).getByRole('alert')).toHaveTextContent('it is not JSON'));
    expect(account.stored().looks).toEqual(CALM);
  });

  test('an exported file reads back as the same look set, named after its preset', async () => {
    let blob: Blob | null = null;
    URL.createObjectURL = vi.fn((value: Blob) => {
      blob = value;
      return 'blob:looks';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    downloadLooksFile(NIGHT_RACE);
    expect(clicked).toEqual(['flaglight-looks-night-race.json']);
    const read = await readLooksFile(blob!);
    expect(read).toEqual({ ok: true, name: 'Night race', looks: NIGHT_RACE });

    expect(looksFileName('My Flaglight looks')).toBe('flaglight-looks-my-flaglight-looks.json');
  });

  test('a file far larger than a looks file is refused before it is read', async () => {
    const huge = new Blob(['x'.repeat(300 * 1024)]);
    expect(await readLooksFile(huge)).toEqual({
      ok: false,
      error: 'This file is too large to be a Flaglight looks file.',
    });
  });
});
