import {
  TOAST_DEFAULT_DURATION_MS,
  TOAST_ERROR_DURATION_MS,
  TOAST_INFO_DURATION_MS,
  TOAST_MAX,
  TOAST_SUCCESS_DURATION_MS,
  TOAST_WARNING_DURATION_MS,
  type Toast,
  type ToastType,
} from '@flaglight/core';

/** SPEC §9: how long each kind of toast stays on screen. */
export const TOAST_DURATIONS: Record<ToastType, number> = {
  success: TOAST_SUCCESS_DURATION_MS,
  error: TOAST_ERROR_DURATION_MS,
  warning: TOAST_WARNING_DURATION_MS,
  info: TOAST_INFO_DURATION_MS,
};

export interface ShowToastOptions {
  type?: ToastType;
  message?: string;
  /** Milliseconds; defaults to the type's duration, or 5 s without a type. */
  duration?: number;
  action?: Toast['action'];
}

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  startedAt: number;
  remaining: number;
}

type Listener = () => void;

/**
 * The toasts on screen (SPEC §3 Toast, §9 limits): at most five, the oldest leaves first;
 * each leaves after its duration. Timers pause while the person reads (hover or focus).
 */
export function createToastStore() {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  let paused = false;
  const timers = new Map<string, Timer>();
  const listeners = new Set<Listener>();

  const emit = () => listeners.forEach((listener) => listener());

  function startTimer(id: string, timer: Timer) {
    timer.startedAt = Date.now();
    timer.handle = setTimeout(() => dismiss(id), timer.remaining);
  }

  function dismiss(id: string) {
    const timer = timers.get(id);
    if (timer?.handle) clearTimeout(timer.handle);
    timers.delete(id);
    const next = toasts.filter((toast) => toast.id !== id);
    if (next.length === toasts.length) return;
    toasts = next;
    emit();
  }

  function show(title: string, options: ShowToastOptions = {}): string {
    const type = options.type ?? 'info';
    const duration =
      options.duration ?? (options.type ? TOAST_DURATIONS[options.type] : TOAST_DEFAULT_DURATION_MS);
    const id = String(nextId++);
    const toast: Toast = { id, type, title, duration, message: options.message, action: options.action };
    toasts = [...toasts, toast];
    while (toasts.length > TOAST_MAX) {
      const oldest = toasts[0];
      if (!oldest) break;
      const timer = timers.get(oldest.id);
      if (timer?.handle) clearTimeout(timer.handle);
      timers.delete(oldest.id);
      toasts = toasts.slice(1);
    }
    const timer: Timer = { handle: null, startedAt: 0, remaining: duration };
    timers.set(id, timer);
    if (!paused) startTimer(id, timer);
    emit();
    return id;
  }

  function pause() {
    if (paused) return;
    paused = true;
    const now = Date.now();
    for (const timer of timers.values()) {
      if (timer.handle) clearTimeout(timer.handle);
      timer.handle = null;
      timer.remaining = Math.max(0, timer.remaining - (now - timer.startedAt));
    }
  }

  function resume() {
    if (!paused) return;
    paused = false;
    for (const [id, timer] of timers) startTimer(id, timer);
  }

  function clear() {
    for (const timer of timers.values()) if (timer.handle) clearTimeout(timer.handle);
    timers.clear();
    toasts = [];
    paused = false;
    emit();
  }

  return {
    show,
    dismiss,
    pause,
    resume,
    clear,
    getToasts: () => toasts,
    subscribe: (listener: Listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;
