import { screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { renderApp, SCREEN_WAIT } from '../../test/render-app';
import { buildUser, seedSession } from '../../test/users';
import type { User } from '../auth/user';

const SIGNED_OUT = null;
const MEMBER = buildUser({ plan: 'lifetime' });
const ADMIN = buildUser({ email: 'admin@example.com', isAdmin: true, plan: 'pro' });

async function expectScreen(path: string, user: User | null, landsOn: string, heading: string | RegExp) {
  if (user) seedSession(user);
  const { router } = renderApp(path);
  expect(await screen.findByRole('heading', { level: 1, name: heading }, SCREEN_WAIT)).toBeInTheDocument();
  await waitFor(() => expect(router.state.location.pathname).toBe(landsOn));
}

// SPEC §2 Screens and routes: [path, who, where they land, the heading they see].
const CASES: [string, User | null, string, string | RegExp][] = [
  ['/', SIGNED_OUT, '/', /when the flag flies/i],
  ['/', MEMBER, '/dashboard', 'Dashboard'],
  ['/login', SIGNED_OUT, '/login', 'Sign In'],
  ['/login?mode=signup', SIGNED_OUT, '/login', 'Sign Up'],
  ['/login', MEMBER, '/dashboard', 'Dashboard'],
  ['/forgot-password', SIGNED_OUT, '/forgot-password', 'Forgot Password'],
  ['/forgot-password', MEMBER, '/dashboard', 'Dashboard'],
  ['/reset-password', SIGNED_OUT, '/reset-password', 'Reset Password'],
  ['/reset-password', MEMBER, '/dashboard', 'Dashboard'],
  ['/verify-email', SIGNED_OUT, '/verify-email', 'Confirm E-mail'],
  ['/verify-email', MEMBER, '/verify-email', 'Confirm E-mail'],
  ['/simple-login', SIGNED_OUT, '/simple-login', 'Test Login'],
  ['/simple-login', MEMBER, '/simple-login', 'Test Login'],
  ['/minimal-dashboard', SIGNED_OUT, '/minimal-dashboard', 'Minimal Dashboard'],
  ['/minimal-dashboard', MEMBER, '/minimal-dashboard', 'Minimal Dashboard'],
  ['/dashboard', SIGNED_OUT, '/login', 'Sign In'],
  ['/dashboard', MEMBER, '/dashboard', 'Dashboard'],
  ['/settings', SIGNED_OUT, '/login', 'Sign In'],
  ['/settings', MEMBER, '/settings', 'Settings'],
  ['/help', SIGNED_OUT, '/login', 'Sign In'],
  ['/help', MEMBER, '/help', 'Help'],
  ['/admin', SIGNED_OUT, '/login', 'Sign In'],
  ['/admin', MEMBER, '/dashboard', 'Dashboard'],
  ['/admin', ADMIN, '/admin', 'Admin'],
  ['/privacy', SIGNED_OUT, '/privacy', 'Privacy Policy'],
  ['/privacy', MEMBER, '/privacy', 'Privacy Policy'],
  ['/terms', SIGNED_OUT, '/terms', 'Terms of Service'],
  ['/aboutme', SIGNED_OUT, '/aboutme', 'About'],
  ['/aboutme', MEMBER, '/aboutme', 'About'],
  ['/nope', SIGNED_OUT, '/', /when the flag flies/i],
  ['/nope/deeper', MEMBER, '/dashboard', 'Dashboard'],
];

describe('access rules', () => {
  test.each(CASES)('%s as %o lands on %s', async (path, user, landsOn, heading) => {
    await expectScreen(path, user, landsOn, heading);
  });
});

describe('top bar (SPEC §2 Navigation)', () => {
  test('is hidden on / when signed out and shown on other pages', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: /when the flag flies/i });
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute(
      'href',
      '/login?mode=signup',
    );
  });

  test('signed out off the landing: Login and Get Started, both to /login', async () => {
    renderApp('/privacy');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Login', '/login'],
      ['Get Started', '/login'],
    ]);
  });

  test('signed in: Dashboard, Settings, Help and the Lifetime badge; no Admin for a member', async () => {
    seedSession(MEMBER);
    renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(Array.from(nav.querySelectorAll('a')).map((a) => a.textContent)).toEqual([
      'Dashboard',
      'Settings',
      'Help',
    ]);
    expect(screen.getAllByText('Lifetime').length).toBeGreaterThan(0);
  });

  test('an admin also sees Admin, and a trial user no Lifetime badge', async () => {
    seedSession({ ...ADMIN, plan: 'trial' });
    renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(Array.from(nav.querySelectorAll('a')).map((a) => a.textContent)).toContain('Admin');
    expect(screen.queryByText('Lifetime')).not.toBeInTheDocument();
  });
});

describe('dashboard welcome header', () => {
  test('prompts a trial user to upgrade in Settings', async () => {
    seedSession(buildUser({ plan: 'trial' }));
    renderApp('/dashboard');
    expect(await screen.findByRole('link', { name: 'Go to Settings to upgrade' })).toHaveAttribute(
      'href',
      '/settings?section=upgrade',
    );
  });

  test('never prompts an admin on trial', async () => {
    seedSession({ ...ADMIN, plan: 'trial' });
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.queryByRole('link', { name: 'Go to Settings to upgrade' })).not.toBeInTheDocument();
  });
});
