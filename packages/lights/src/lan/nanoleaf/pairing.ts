import { LightError } from '../../errors.js';
import { parsePanelLayout, type NanoleafPanel } from './effects.js';
import { nanoleafBaseUrl, nanoleafRequest, type NanoleafAddress } from './http.js';

/** The window the power button opens is ~30 s (reference §1): poll once a second for up to 60 s. */
export const NANOLEAF_PAIRING_TIMEOUT_MS = 60_000;
export const NANOLEAF_PAIRING_POLL_MS = 1_000;

export const NANOLEAF_PAIRING_TIMED_OUT =
  'The Nanoleaf controller did not enter pairing mode in time. Hold its power button for 5–7 seconds until the lights flash, then try again.';
export const NANOLEAF_TOKEN_REVOKED =
  'The Nanoleaf controller no longer accepts Flaglight (its token was removed or it was reset): pair it again.';

const TOKEN_PATTERN = /^[A-Za-z0-9]{16,64}$/;

export interface NanoleafInfo {
  /** Lower-case serial number: the light's id (stable until a factory reset). */
  id: string;
  name: string;
  model: string;
  firmwareVersion: string;
  /** Null for devices without `panelLayout` (Matter-Wi-Fi Essentials). */
  panels: NanoleafPanel[] | null;
}

export interface PairNanoleafOptions {
  timeoutMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
  /** Each 403: the controller is not in pairing mode yet. */
  onWaiting?: (info: { elapsedMs: number; remainingMs: number }) => void;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Pairs with a controller (reference §1 "Pairing"): `POST /api/v1/new` once a `pollMs` while the
 * user holds the power button; 403 means "not in pairing mode yet" (`onWaiting`), a connection
 * error is tried again on the next poll (no poll outlasts `timeoutMs`). Resolves with the
 * 32-character token; rejects with a `timeout` LightError after `timeoutMs`, saying to hold the
 * button and try again (or, when the address never answered, why: time-out or refused). Anything
 * but a Nanoleaf answer (another status, an answer too large) ends it at once.
 */
export async function pairNanoleaf(
  address: NanoleafAddress,
  options: PairNanoleafOptions = {},
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? NANOLEAF_PAIRING_TIMEOUT_MS;
  const pollMs = options.pollMs ?? NANOLEAF_PAIRING_POLL_MS;
  const url = `${nanoleafBaseUrl(address)}/api/v1/new`;
  const started = Date.now();
  // An address that never answered is reported as silent, not as "not in pairing mode".
  let answered = false;
  let lastError: LightError | null = null;
  for (;;) {
    if (options.signal?.aborted) throw new LightError('not-configured', 'Nanoleaf pairing cancelled');
    let status = 0;
    try {
      // No single poll may outlast the pairing's own deadline (a device that never answers).
      const left = Math.max(1, timeoutMs - (Date.now() - started));
      const answer = await nanoleafRequest(url, {
        method: 'POST',
        timeoutMs: Math.min(Math.max(pollMs, 2_000), left),
      });
      answered = true;
      status = answer.status;
      const token = (answer.body as { auth_token?: unknown } | null)?.auth_token;
      if (status === 200 && typeof token === 'string' && TOKEN_PATTERN.test(token)) return token;
      if (status === 200)
        throw new LightError('server', 'The Nanoleaf controller answered pairing without a token');
      if (status !== 403)
        throw new LightError(
          'bad-request',
          `The Nanoleaf controller refused pairing (HTTP ${status})`,
          status,
        );
    } catch (error) {
      // Not a Nanoleaf answer at all ends it; an unreachable or busy controller is asked again.
      if (error instanceof LightError && (error.kind === 'bad-request' || error.kind === 'server'))
        throw error;
      lastError = error instanceof LightError ? error : null;
    }
    const elapsedMs = Date.now() - started;
    const remainingMs = timeoutMs - elapsedMs;
    if (remainingMs <= 0) {
      if (!answered && lastError) throw lastError;
      throw new LightError('timeout', NANOLEAF_PAIRING_TIMED_OUT);
    }
    if (status === 403) options.onWaiting?.({ elapsedMs, remainingMs });
    await sleep(Math.min(pollMs, remainingMs), options.signal);
  }
}

/** `GET /api/v1/<token>/` → who the controller is and its panels. 401 → the token is revoked. */
export async function fetchNanoleafInfo(
  address: NanoleafAddress,
  token: string,
  timeoutMs?: number,
): Promise<NanoleafInfo> {
  const { status, body } = await nanoleafRequest(
    `${nanoleafBaseUrl(address)}/api/v1/${encodeURIComponent(token)}/`,
    {
      method: 'GET',
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    },
  );
  if (status === 401 || status === 403) throw new LightError('auth', NANOLEAF_TOKEN_REVOKED, status);
  if (status !== 200 || typeof body !== 'object' || body === null)
    throw new LightError(
      'server',
      `This address did not answer like a Nanoleaf controller (HTTP ${status})`,
      status,
    );
  const raw = body as Record<string, unknown>;
  const text = (v: unknown, fallback: string) => (typeof v === 'string' && v !== '' ? v : fallback);
  const serial = text(raw.serialNo, '');
  return {
    id: (serial || `${address.host}:${address.port}`).toLowerCase(),
    name: text(raw.name, 'Nanoleaf'),
    model: text(raw.model, 'Nanoleaf'),
    firmwareVersion: text(raw.firmwareVersion, ''),
    panels: parsePanelLayout(raw.panelLayout),
  };
}

/** Removes a token from the controller (`DELETE /api/v1/<token>` → 204), e.g. when the user unpairs. */
export async function revokeNanoleafToken(address: NanoleafAddress, token: string): Promise<void> {
  const { status } = await nanoleafRequest(
    `${nanoleafBaseUrl(address)}/api/v1/${encodeURIComponent(token)}`,
    {
      method: 'DELETE',
    },
  );
  if (status !== 204 && status !== 200 && status !== 401)
    throw new LightError(
      'server',
      `The Nanoleaf controller did not remove the token (HTTP ${status})`,
      status,
    );
}
