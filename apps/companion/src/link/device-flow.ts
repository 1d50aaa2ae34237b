import {
  ServerError,
  UnreachableError,
  type DeviceCodeAnswer,
  type DeviceTokenAnswer,
  type ServerApi,
} from './server-api.js';

/** RFC 8628 §3.5: a `slow_down` adds 5 seconds to the polling interval. */
const SLOW_DOWN_STEP_S = 5;
/** While the server cannot be reached, ask again this often. */
const UNREACHABLE_RETRY_S = 10;

export interface LinkProgress {
  /** A code is waiting for the user: show it, open the page. */
  onCode(code: DeviceCodeAnswer): void;
  /** The code expired unused: a new one follows. */
  onExpired?(): void;
  onUnreachable?(message: string): void;
}

export type LinkOutcome =
  { ok: true; token: DeviceTokenAnswer } | { ok: false; reason: 'denied' | 'aborted' };

/**
 * Links the companion by the device authorization grant (RFC 8628): asks for a code, then polls for
 * the token at the interval the server names until the user links or cancels in the browser. An
 * expired code is replaced by a new one; an unreachable server is waited for. The companion never
 * sees the user's password.
 */
export async function linkDevice(
  api: ServerApi,
  info: { name: string; platform: string },
  progress: LinkProgress,
  signal: AbortSignal,
  wait: (ms: number, signal: AbortSignal) => Promise<void> = abortableSleep,
): Promise<LinkOutcome> {
  while (!signal.aborted) {
    let code: DeviceCodeAnswer;
    try {
      code = await api.requestDeviceCode(info);
    } catch (error) {
      if (!(await waitAfter(error, progress, signal, wait))) return { ok: false, reason: 'aborted' };
      continue;
    }
    progress.onCode(code);
    let interval = Math.max(1, code.interval);
    const expiresAt = Date.now() + code.expires_in * 1000;
    for (;;) {
      try {
        await wait(interval * 1000, signal);
      } catch {
        return { ok: false, reason: 'aborted' };
      }
      if (Date.now() > expiresAt + interval * 1000) break;
      try {
        return { ok: true, token: await api.pollDeviceToken(code.device_code) };
      } catch (error) {
        if (error instanceof ServerError) {
          if (error.code === 'authorization_pending') continue;
          if (error.code === 'slow_down') {
            interval += SLOW_DOWN_STEP_S;
            continue;
          }
          if (error.code === 'access_denied') return { ok: false, reason: 'denied' };
          if (error.code === 'expired_token' || error.code === 'invalid_grant') break;
          if (error.status === 429) {
            interval += SLOW_DOWN_STEP_S;
            continue;
          }
        }
        if (!(await waitAfter(error, progress, signal, wait))) return { ok: false, reason: 'aborted' };
      }
    }
    progress.onExpired?.();
  }
  return { ok: false, reason: 'aborted' };
}

async function waitAfter(
  error: unknown,
  progress: LinkProgress,
  signal: AbortSignal,
  wait: (ms: number, signal: AbortSignal) => Promise<void>,
): Promise<boolean> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UnreachableError || error instanceof ServerError) progress.onUnreachable?.(message);
  else throw error;
  try {
    await wait(UNREACHABLE_RETRY_S * 1000, signal);
    return true;
  } catch {
    return false;
  }
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const handle = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(handle);
      reject(new Error('aborted'));
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
