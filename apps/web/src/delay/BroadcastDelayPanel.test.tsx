import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { buildUser } from '../../test/users';
import { AuthContext, type AuthContextValue } from '../auth/auth-context';
import { readLocalSettings, updateLocalSettings } from '../settings/local-settings';
import { toastStore } from '../toasts/toast';
import { BroadcastDelayPanel } from './BroadcastDelayPanel';

const USER = buildUser({ email: 'delay.fan@example.com' });

beforeEach(() => toastStore.clear());
afterEach(() => vi.useRealTimers());

function renderPanel() {
  // Only the fields the panel reads; the rest of the context is the accounts work's.
  const auth = {
    status: 'authenticated',
    loading: false,
    isAuthenticated: true,
    isAdmin: false,
    user: USER,
    token: 't',
    login: () => {},
    logout: () => {},
  } as unknown as AuthContextValue;
  return render(
    <AuthContext.Provider value={auth}>
      <BroadcastDelayPanel />
    </AuthContext.Provider>,
  );
}

const delay = () => readLocalSettings(USER.email).delaySeconds;
const preset = (name: RegExp) => screen.getByRole('button', { name });

describe('Broadcast Delay panel', () => {
  test('starts enabled at 5 s with the cable preset selected', () => {
    renderPanel();
    expect(screen.getByRole('switch', { name: 'Enable delay' })).toBeChecked();
    expect(preset(/Cable\/Satellite/)).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('spinbutton', { name: 'Exact delay (seconds)' })).toHaveValue(5);
    expect(screen.getByRole('slider')).toHaveAttribute('aria-valuenow', '5');
  });

  test('raising the delay applies at once, without asking', () => {
    renderPanel();
    fireEvent.click(preset(/Streaming Service/));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(delay()).toBe(20);
  });

  test('reducing asks "Reduce Broadcast Delay?"; Cancel keeps the delay', () => {
    updateLocalSettings(USER.email, { delaySeconds: 30 });
    renderPanel();
    fireEvent.click(preset(/Cable\/Satellite/));
    const dialog = screen.getByRole('alertdialog', { name: 'Reduce Broadcast Delay?' });
    expect(dialog).toHaveTextContent('From 30 s to 5 s');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(delay()).toBe(30);
    expect(screen.getByRole('spinbutton', { name: 'Exact delay (seconds)' })).toHaveValue(30);
  });

  test('reducing with "Yes, Reduce Delay" stores the lower delay', () => {
    updateLocalSettings(USER.email, { delaySeconds: 30 });
    renderPanel();
    const input = screen.getByRole('spinbutton', { name: 'Exact delay (seconds)' });
    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.submit(input);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Reduce Delay' }));
    expect(delay()).toBe(12);
  });

  test('the number input refuses a negative delay', () => {
    renderPanel();
    const input = screen.getByRole('spinbutton', { name: 'Exact delay (seconds)' });
    fireEvent.change(input, { target: { value: '-3' } });
    fireEvent.submit(input);
    expect(screen.getByRole('alert')).toHaveTextContent('Delay cannot be negative');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(delay()).toBe(5);
  });

  test('the slider moves in whole seconds within 0 to 60', () => {
    renderPanel();
    const slider = screen.getByRole('slider');
    expect(slider).toHaveAttribute('aria-valuemin', '0');
    expect(slider).toHaveAttribute('aria-valuemax', '60');
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(delay()).toBe(6);
    fireEvent.keyDown(slider, { key: 'End' });
    expect(delay()).toBe(60);
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(screen.getByRole('alertdialog', { name: 'Reduce Broadcast Delay?' })).toBeInTheDocument();
  });

  test('the switch turns the delay off and on', () => {
    renderPanel();
    fireEvent.click(screen.getByRole('switch', { name: 'Enable delay' }));
    expect(readLocalSettings(USER.email).delayEnabled).toBe(false);
    expect(screen.getByText(/Delay off/)).toBeInTheDocument();
  });

  test('calibration: the rounded seconds between Start and Mark become the delay', () => {
    vi.useFakeTimers({ now: new Date('2026-03-08T04:00:00Z') });
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    act(() => {
      vi.advanceTimersByTime(7400);
    });
    expect(screen.getByTestId('calibration-elapsed')).toHaveTextContent('7.4 s');
    fireEvent.click(screen.getByRole('button', { name: 'Mark' }));
    expect(delay()).toBe(7);
    expect(screen.getByText('Measured 7 s')).toBeInTheDocument();
    expect(toastStore.getToasts().map((t) => t.title)).toEqual(['Broadcast delay calibrated to 7 s']);
  });

  test('a calibration shorter than the delay asks before reducing', () => {
    vi.useFakeTimers({ now: new Date('2026-03-08T04:00:00Z') });
    updateLocalSettings(USER.email, { delaySeconds: 30 });
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    act(() => {
      vi.advanceTimersByTime(21_600);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Mark' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('From 30 s to 22 s');
    expect(delay()).toBe(30);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Reduce Delay' }));
    expect(delay()).toBe(22);
  });
});
