import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function fill(password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('New Password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm Password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
}

test('without a token it says the link is invalid', async () => {
  renderApp('/reset-password');
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Invalid reset link. Please request a new password reset.',
  );
});

test('mismatched and weak passwords are refused before anything is sent', async () => {
  const api = stubApi({});
  renderApp('/reset-password?token=t1');
  await screen.findByLabelText('New Password');
  fill('Abcdef1!', 'Abcdef1?');
  expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
  fill('short', 'short');
  // The previous alert stays until the re-render, so wait for the new text rather than the element.
  await waitFor(() =>
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters long'),
  );
  expect(api.calls).toEqual([]);
});

test('a failed reset shows the server error, else Failed to reset password', async () => {
  let first = true;
  stubApi({
    'POST /auth/reset-password': () => {
      const reply = first
        ? { status: 400, body: { error: 'This reset link is invalid' } }
        : new TypeError('offline');
      first = false;
      return reply;
    },
  });
  renderApp('/reset-password?token=t1');
  await screen.findByLabelText('New Password');
  fill('Abcdef1!', 'Abcdef1!');
  expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid');
  fill('Abcdef1!', 'Abcdef1!');
  expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
});

test('success sends token, password and confirmation, then goes to /login after 3 s', async () => {
  const api = stubApi({
    'POST /auth/reset-password': { body: { success: true, message: 'Your password has been reset.' } },
  });
  const { router } = renderApp('/reset-password?token=t1');
  await screen.findByLabelText('New Password');
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fill('Abcdef1!', 'Abcdef1!');
  expect(await screen.findByRole('status')).toHaveTextContent('Your password has been reset.');
  expect(api.calls[0]?.body).toEqual({ token: 't1', password: 'Abcdef1!', confirmPassword: 'Abcdef1!' });
  // shouldAdvanceTime lets real time leak in (a loaded machine adds a few hundred ms), so the
  // check before the 3 s mark keeps a margin.
  await act(() => vi.advanceTimersByTimeAsync(2_000));
  expect(router.state.location.pathname).toBe('/reset-password');
  await act(() => vi.advanceTimersByTimeAsync(1_100));
  expect(router.state.location.pathname).toBe('/login');
});
