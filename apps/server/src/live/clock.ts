/**
 * Time and timers as a dependency, so the hub, the pollers and the stream run on a fake clock in
 * tests (CONVENTIONS.md: time comes in as a parameter).
 */
export interface Timers {
  now: () => number;
  setTimeout(fn: () => unknown, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly id: number;
}

export function createSystemTimers(now: () => number = () => Date.now()): Timers {
  const handles = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now,
    setTimeout(fn, ms) {
      const id = next++;
      const t = setTimeout(() => {
        handles.delete(id);
        void fn();
      }, ms);
      t.unref();
      handles.set(id, t);
      return { id };
    },
    clearTimeout(handle) {
      const t = handles.get(handle.id);
      if (t) clearTimeout(t);
      handles.delete(handle.id);
    },
  };
}
