import type { ErrorCode } from '@flaglight/contract';
import { HttpError } from '../http/errors.js';
import type { GoveeFailureKind } from './client.js';
import { GOVEE_KEY_MESSAGES } from './key.js';

/** Server texts for Govee; the codes are what clients act on (govee_* marks Govee disconnected). */
export const GOVEE_MESSAGES = {
  notConnected: 'Govee is not connected. Add your Govee API key in Settings.',
  keyRefused:
    'Govee did not accept that API key. Copy it again from the e-mail Govee sent (a new application replaces the old key).',
  storedKeyRefused: 'Govee no longer accepts the stored API key. Add your current key in Settings.',
  rateLimited: (seconds: number) =>
    `Govee is rate limiting this key: try again in ${seconds} s (Govee allows 10 requests per device per minute and 10,000 a day).`,
  unreachable: 'Govee could not be reached. Try again in a moment.',
  timeout: 'Govee did not answer in time. Try again in a moment.',
  refused: 'Govee refused the request. Check that the light is online in the Govee Home app.',
  storedKeyUnsendable:
    'The stored Govee API key has characters a key cannot have. Add your key again in Settings.',
  lightNotFound: 'Govee light not found',
} as const;

export function goveeNotConnected(): HttpError {
  return new HttpError(403, GOVEE_MESSAGES.notConnected, {}, 'govee_not_connected');
}

/**
 * The HTTP error for a failed Govee call. `connecting`: the key was just typed (400), else it is
 * the stored key that failed (403, so the client marks Govee disconnected). The answer is in
 * these words only: what Govee or the HTTP library said goes to the log (the caller's).
 */
export function toGoveeHttpError(
  kind: GoveeFailureKind,
  { connecting = false, retryAfterMs }: { connecting?: boolean; retryAfterMs?: number | undefined } = {},
): HttpError {
  switch (kind) {
    case 'key':
      return connecting
        ? new HttpError(400, GOVEE_MESSAGES.keyRefused, {}, 'govee_key_refused' satisfies ErrorCode)
        : new HttpError(403, GOVEE_MESSAGES.storedKeyRefused, {}, 'govee_key_refused');
    case 'bad-key':
      // The route checks a typed key first (key.ts); here only as the client's second line.
      return connecting
        ? new HttpError(400, GOVEE_KEY_MESSAGES.unsendable, {}, 'invalid_input')
        : new HttpError(403, GOVEE_MESSAGES.storedKeyUnsendable, {}, 'govee_key_refused');
    case 'rate-limit': {
      const seconds = Math.max(1, Math.ceil((retryAfterMs ?? 60_000) / 1000));
      return new HttpError(
        429,
        GOVEE_MESSAGES.rateLimited(seconds),
        { retryAfterS: seconds },
        'rate_limited',
      );
    }
    case 'timeout':
      return new HttpError(504, GOVEE_MESSAGES.timeout, {}, 'upstream_timeout');
    case 'refused':
      return new HttpError(502, GOVEE_MESSAGES.refused, {}, 'upstream_unavailable');
    default:
      return new HttpError(502, GOVEE_MESSAGES.unreachable, {}, 'upstream_unavailable');
  }
}
