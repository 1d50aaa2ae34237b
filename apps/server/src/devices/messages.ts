// The device texts the server answers with, and the token route's refusals (RFC 8628).
import {
  DEVICE_CODE_GRANT_TYPE,
  DEVICE_MAX_LINKED_PER_ACCOUNT,
  DEVICE_POLL_INTERVAL_SECONDS,
  type ErrorCode,
} from '@flaglight/contract';
import { HttpError } from '../http/errors.js';

export const DEVICE_MESSAGES = {
  authorization_pending: 'Waiting for the user to link this companion.',
  slow_down: `Polled too fast: wait at least ${DEVICE_POLL_INTERVAL_SECONDS} seconds between polls.`,
  access_denied: 'The user cancelled linking this companion.',
  expired_token: 'This code has expired. Ask for a new one.',
  invalid_grant: 'This device code is unknown or has already been used.',
  unsupported_grant_type: `Only the device code grant (${DEVICE_CODE_GRANT_TYPE}) is supported.`,
  unknownCode: 'No companion is waiting for this code. Check the code it shows, or start linking again.',
  expiredCode: 'This code has expired. Start linking again from the companion.',
  notFound: 'No such companion on your account.',
  unlinked: 'This companion was unlinked from its account.',
  tooMany: `This account has ${DEVICE_MAX_LINKED_PER_ACCOUNT} linked companions, the most it can have. Unlink one in Settings → Devices, then link this one again.`,
} as const;

/** A token-route refusal: RFC 8628's code is both `error` and `code`; the words go in `error_description`. */
export function grantError(code: Extract<ErrorCode, keyof typeof DEVICE_MESSAGES>): HttpError {
  return new HttpError(400, code, { error_description: DEVICE_MESSAGES[code] }, code);
}
