import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { renderApp } from '../../test/render-app';
import { seedSession } from '../../test/users';

test('Sign Out in Settings clears the stored session and goes to the landing', async () => {
  seedSession();
  const { router } = renderApp('/settings');
  await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
  expect(await screen.findByRole('link', { name: 'Start Free Trial' })).toBeInTheDocument();
  await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  expect(localStorage.getItem('auth_token')).toBeNull();
  expect(localStorage.getItem('user')).toBeNull();
});

test('Logout on the minimal dashboard clears the stored token and user', async () => {
  seedSession();
  renderApp('/minimal-dashboard');
  await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
  expect(await screen.findByText(/not signed in/i)).toBeInTheDocument();
  expect(localStorage.getItem('auth_token')).toBeNull();
  expect(localStorage.getItem('user')).toBeNull();
});
