import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary';

let broken = true;
function Flaky() {
  if (broken) throw new Error('render failed');
  return <p>Recovered</p>;
}

// React reports every caught error on the console; keep the test output readable.
beforeEach(() => {
  broken = true;
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('ErrorBoundary', () => {
  test("shows 'Something went wrong' with Try Again and Go Home", () => {
    render(
      <ErrorBoundary onGoHome={() => {}}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Home' })).toBeInTheDocument();
  });

  test('Try Again renders the screen again', async () => {
    render(
      <ErrorBoundary onGoHome={() => {}}>
        <Flaky />
      </ErrorBoundary>,
    );
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Recovered')).toBeInTheDocument();
  });

  test('Try Again reloads the page when a lazily loaded screen failed to download', async () => {
    const reload = vi.fn();
    function ChunkFailure(): never {
      throw new TypeError('Failed to fetch dynamically imported module: /assets/DashboardPage-x.js');
    }
    render(
      <ErrorBoundary onGoHome={() => {}} reload={reload}>
        <ChunkFailure />
      </ErrorBoundary>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  test('Go Home asks to leave for the home screen', async () => {
    const onGoHome = vi.fn();
    render(
      <ErrorBoundary onGoHome={onGoHome} resetKey="a">
        <Flaky />
      </ErrorBoundary>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Go Home' }));
    expect(onGoHome).toHaveBeenCalledOnce();
  });

  test('a navigation clears the error', () => {
    const { rerender } = render(
      <ErrorBoundary onGoHome={() => {}} resetKey="settings-entry">
        <Flaky />
      </ErrorBoundary>,
    );
    broken = false;
    rerender(
      <ErrorBoundary onGoHome={() => {}} resetKey="home-entry">
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Recovered')).toBeInTheDocument();
  });
});
