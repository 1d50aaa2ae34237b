import { describe, expect, test } from 'vitest';
import { deriveMobileMenuItems, deriveTopBarItems, isTopBarShown } from './nav-items';

const labels = (items: { label: string }[]) => items.map((i) => i.label);

describe('deriveTopBarItems', () => {
  test('signed out: Login and Get Started, both to /login', () => {
    const items = deriveTopBarItems({ isAuthenticated: false, isAdmin: false });
    expect(items.map((i) => [i.label, i.to])).toEqual([
      ['Login', '/login'],
      ['Get Started', '/login'],
    ]);
  });

  test('signed in: Dashboard, Settings, Help; Admin only for admins', () => {
    expect(labels(deriveTopBarItems({ isAuthenticated: true, isAdmin: false }))).toEqual([
      'Dashboard',
      'Settings',
      'Help',
    ]);
    expect(labels(deriveTopBarItems({ isAuthenticated: true, isAdmin: true }))).toEqual([
      'Dashboard',
      'Settings',
      'Help',
      'Admin',
    ]);
  });
});

describe('deriveMobileMenuItems', () => {
  test('signed out: Home, Help, Sign In, Sign Up (to sign-up mode)', () => {
    const items = deriveMobileMenuItems({ isAuthenticated: false });
    expect(items.map((i) => [i.label, i.to])).toEqual([
      ['Home', '/'],
      ['Help', '/help'],
      ['Sign In', '/login'],
      ['Sign Up', '/login?mode=signup'],
    ]);
  });

  test('signed in: Home, Settings, Help', () => {
    expect(labels(deriveMobileMenuItems({ isAuthenticated: true }))).toEqual(['Home', 'Settings', 'Help']);
  });
});

test('the top bar hides only on / while signed out', () => {
  expect(isTopBarShown('/', false)).toBe(false);
  expect(isTopBarShown('/', true)).toBe(true);
  expect(isTopBarShown('/privacy', false)).toBe(true);
});
