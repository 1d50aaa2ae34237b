import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createToastStore } from './toast-store';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const titles = (store: ReturnType<typeof createToastStore>) => store.getToasts().map((t) => t.title);

describe('toasts (SPEC §3, §9)', () => {
  test('at most five show; a sixth pushes out the oldest', () => {
    const store = createToastStore();
    for (let i = 1; i <= 6; i += 1) store.show(`Toast ${i}`);
    expect(titles(store)).toEqual(['Toast 2', 'Toast 3', 'Toast 4', 'Toast 5', 'Toast 6']);
  });

  test.each([
    ['success', 4000],
    ['error', 6000],
    ['warning', 5000],
    ['info', 4000],
  ] as const)('a %s toast lasts %i ms', (type, duration) => {
    const store = createToastStore();
    store.show('Hello', { type });
    expect(store.getToasts()[0]?.duration).toBe(duration);
    vi.advanceTimersByTime(duration - 1);
    expect(titles(store)).toEqual(['Hello']);
    vi.advanceTimersByTime(1);
    expect(titles(store)).toEqual([]);
  });

  test('an untyped toast lasts the default 5 s; an explicit duration wins', () => {
    const store = createToastStore();
    store.show('Default');
    store.show('Long', { type: 'success', duration: 10_000 });
    vi.advanceTimersByTime(5000);
    expect(titles(store)).toEqual(['Long']);
    vi.advanceTimersByTime(5000);
    expect(titles(store)).toEqual([]);
  });

  test('a toast pushed out early does not remove a later one when its timer would have fired', () => {
    const store = createToastStore();
    for (let i = 1; i <= 6; i += 1) store.show(`Toast ${i}`, { type: 'error' });
    vi.advanceTimersByTime(5999);
    expect(store.getToasts()).toHaveLength(5);
    vi.advanceTimersByTime(1);
    expect(store.getToasts()).toHaveLength(0);
  });

  test('pausing holds the remaining time; resuming spends only what was left', () => {
    const store = createToastStore();
    store.show('Read me', { type: 'info' });
    vi.advanceTimersByTime(3000);
    store.pause();
    vi.advanceTimersByTime(60_000);
    expect(titles(store)).toEqual(['Read me']);
    store.resume();
    vi.advanceTimersByTime(999);
    expect(titles(store)).toEqual(['Read me']);
    vi.advanceTimersByTime(1);
    expect(titles(store)).toEqual([]);
  });

  test('keeps the optional action and can be dismissed by id', () => {
    const store = createToastStore();
    const onClick = vi.fn();
    const id = store.show('Undo?', { action: { label: 'Undo', onClick } });
    expect(store.getToasts()[0]?.action?.label).toBe('Undo');
    store.dismiss(id);
    expect(store.getToasts()).toEqual([]);
  });
});
