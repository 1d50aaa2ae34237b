import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { setFlagAccent, useFlagAccent } from './flag-accent';
import { useDocumentTitle } from './use-document-title';
import { useFlagTitle } from './use-flag-title';
import { useWakeLock } from './use-wake-lock';
import { WakeLockNote } from './WakeLockNote';

afterEach(() => {
  act(() => setFlagAccent('green'));
  Reflect.deleteProperty(navigator, 'wakeLock');
});

describe('useFlagAccent', () => {
  test('green by default; a flag repoints the accent token for the whole page', () => {
    const { result } = renderHook(() => useFlagAccent());
    expect(result.current.flag).toBe('green');
    act(() => result.current.setFlag('red'));
    expect(result.current.flag).toBe('red');
    expect(document.documentElement.style.getPropertyValue('--color-accent')).toBe('var(--color-flag-red)');
    act(() => result.current.reset());
    expect(document.documentElement.style.getPropertyValue('--color-accent')).toBe('');
  });
});

describe('useFlagTitle', () => {
  test('shows the flag in the tab title over every screen title, and gives it back afterwards', () => {
    const screenTitle = renderHook(({ title }) => useDocumentTitle(title), {
      initialProps: { title: 'Dashboard' },
    });
    expect(document.title).toBe('Dashboard · Flaglight');
    const { rerender, unmount } = renderHook<void, { flag: 'yellow' | 'red' | null }>(
      ({ flag }) => useFlagTitle(flag),
      { initialProps: { flag: 'yellow' } },
    );
    expect(document.title).toBe('Yellow flag · Flaglight');
    rerender({ flag: 'red' });
    expect(document.title).toBe('Red flag · Flaglight');
    // Moving to another screen keeps the flag in the tab.
    screenTitle.rerender({ title: 'Settings' });
    expect(document.title).toBe('Red flag · Flaglight');
    rerender({ flag: null });
    expect(document.title).toBe('Settings · Flaglight');
    rerender({ flag: 'yellow' });
    unmount();
    expect(document.title).toBe('Settings · Flaglight');
  });
});

describe('useWakeLock', () => {
  function stubWakeLock() {
    const release = vi.fn(() => Promise.resolve());
    const request = vi.fn(() => Promise.resolve({ released: false, release, addEventListener: () => {} }));
    Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true });
    return { request, release };
  }

  function Harness({ active }: { active: boolean }) {
    return <WakeLockNote held={useWakeLock(active)} />;
  }

  test('holds the screen while active, says so, and lets go when the session ends', async () => {
    const { request, release } = stubWakeLock();
    const view = render(<Harness active />);
    expect(await screen.findByText('Screen kept awake while connected')).toBeInTheDocument();
    expect(request).toHaveBeenCalledWith('screen');
    view.rerender(<Harness active={false} />);
    expect(screen.queryByText('Screen kept awake while connected')).not.toBeInTheDocument();
    expect(release).toHaveBeenCalled();
  });

  test('shows nothing where the browser has no Wake Lock', () => {
    render(<Harness active />);
    expect(screen.queryByText('Screen kept awake while connected')).not.toBeInTheDocument();
  });
});
