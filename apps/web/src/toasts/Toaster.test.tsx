import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createToastStore } from './toast-store';
import { Toaster } from './Toaster';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('shows up to five toasts with their message and runs the action once', () => {
  const store = createToastStore();
  const onUndo = vi.fn();
  render(<Toaster store={store} />);
  act(() => {
    for (let i = 1; i <= 7; i += 1) store.show(`Saved ${i}`, { type: 'success' });
    store.show('Light removed', { message: 'Living room lamp', action: { label: 'Undo', onClick: onUndo } });
  });
  expect(screen.getAllByRole('status')).toHaveLength(5);
  expect(screen.getByText('Living room lamp')).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
  expect(onUndo).toHaveBeenCalledOnce();
  expect(screen.queryByText('Light removed')).not.toBeInTheDocument();
});

test('an error toast is an alert and leaves after 6 s', () => {
  const store = createToastStore();
  render(<Toaster store={store} />);
  act(() => {
    store.show('Connection Failed', { type: 'error', message: 'Could not connect to live session.' });
  });
  expect(screen.getByRole('alert')).toHaveTextContent('Connection Failed');
  act(() => {
    vi.advanceTimersByTime(5999);
  });
  expect(screen.getByRole('alert')).toBeInTheDocument();
  act(() => {
    vi.advanceTimersByTime(1);
  });
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('the close button dismisses a toast', () => {
  const store = createToastStore();
  render(<Toaster store={store} />);
  act(() => {
    store.show('Hello');
  });
  fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
  expect(screen.queryByText('Hello')).not.toBeInTheDocument();
});
