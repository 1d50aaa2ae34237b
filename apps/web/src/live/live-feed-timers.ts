import { LIVE_STREAM_SILENCE_MS } from '@flaglight/contract/limits';

/**
 * Calls `request` with a signal that aborts after LIVE_STREAM_SILENCE_MS: a request the server never
 * answers (a frozen process, a lost network) is a failed one, like a stream that says nothing.
 */
export async function unlessSilent<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const timeout = setTimeout(() => abort.abort(), LIVE_STREAM_SILENCE_MS);
  try {
    return await request(abort.signal);
  } finally {
    clearTimeout(timeout);
  }
}

/** A timer that each sign of life restarts; `onSilence` runs when none came for `ms`. */
export function createWatchdog(ms: number) {
  let handle: ReturnType<typeof setTimeout> | null = null;
  const stop = () => {
    if (handle) clearTimeout(handle);
    handle = null;
  };
  return {
    stop,
    restart(onSilence: () => void) {
      stop();
      handle = setTimeout(() => {
        handle = null;
        onSilence();
      }, ms);
    },
  };
}

/** One pending timeout at a time (a new one replaces it); `fn` is skipped once the feed stopped. */
export function createSingleTimer(isStopped: () => boolean) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    later: (fn: () => void, ms: number) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        if (!isStopped()) fn();
      }, ms);
    },
    clear: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
