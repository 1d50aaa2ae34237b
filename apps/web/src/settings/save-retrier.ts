// The automatic retries of a preference the server did not take.

/** Waits before the next automatic try after a failure: a little longer each time, at most a minute. */
export const SAVE_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000] as const;

/** Another try after a failure that may pass by itself: on a timer that backs off, and when the network returns. */
export function createRetrier(run: () => void) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  const onOnline = () => {
    if (failures > 0) fire();
  };
  const fire = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    run();
  };
  window.addEventListener('online', onOnline);
  return {
    failed(transient: boolean) {
      failures += 1;
      if (timer) clearTimeout(timer);
      timer = null;
      if (!transient) return;
      const wait = SAVE_RETRY_DELAYS_MS[Math.min(failures, SAVE_RETRY_DELAYS_MS.length) - 1];
      timer = setTimeout(fire, wait);
    },
    succeeded() {
      failures = 0;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    stop() {
      if (timer) clearTimeout(timer);
      window.removeEventListener('online', onOnline);
    },
  };
}
