import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { renderApp } from '../../test/render-app';
import { seedSession } from '../../test/users';

async function openMenu() {
  await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
  return screen.findByRole('dialog', { name: 'Menu' });
}

function menuLinks(dialog: HTMLElement) {
  return within(dialog)
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);
}

describe('mobile menu (SPEC §2 Navigation)', () => {
  test('signed out: Home, Help, Sign In, Sign Up and the non-affiliation note', async () => {
    renderApp('/privacy');
    const dialog = await openMenu();
    expect(menuLinks(dialog)).toEqual([
      ['Home', '/'],
      ['Help', '/help'],
      ['Sign In', '/login'],
      ['Sign Up', '/login?mode=signup'],
    ]);
    expect(within(dialog).getByText('Not affiliated with Formula 1')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Flaglight' })).toBeInTheDocument();
  });

  test('signed in: Home, Settings, Help and no sign-in links', async () => {
    seedSession();
    renderApp('/dashboard');
    const dialog = await openMenu();
    expect(menuLinks(dialog)).toEqual([
      ['Home', '/'],
      ['Settings', '/settings'],
      ['Help', '/help'],
    ]);
  });

  test('is a slide-in panel 80 units wide and at most 85% of the viewport', async () => {
    renderApp('/terms');
    const dialog = await openMenu();
    expect(dialog).toHaveClass('w-80', 'max-w-[85vw]');
  });

  test('closes on navigation', async () => {
    seedSession();
    const { router } = renderApp('/dashboard');
    const dialog = await openMenu();
    await userEvent.click(within(dialog).getByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/settings');
  });

  test('closes on a backdrop click and on Escape', async () => {
    renderApp('/privacy');
    await openMenu();
    await userEvent.click(screen.getByTestId('menu-backdrop'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
    await openMenu();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
  });
});
