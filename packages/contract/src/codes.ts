// Values only, no zod: the web app imports this module at run time (the landing bundle stays
// free of zod); errors.ts adds the schemas.

/**
 * Every error code the API answers with. Clients branch on these, never on the message text,
 * which is for people and may change.
 */
export const ERROR_CODES = [
  /** The request is malformed or a field is invalid (400). */
  'invalid_input',
  /** No session, an expired one, or wrong credentials (401). */
  'unauthenticated',
  /** Signed in, but the route needs a role the caller does not have (403). */
  'forbidden',
  /** The caller's trial has ended and the route is a paid feature (403). */
  'trial_expired',
  'not_found',
  /** The request clashes with the current state, e.g. an e-mail already taken (409). */
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  /** The bot check was missing, forged or expired (400). */
  'bot_check_failed',
  /** The server has no Hue client credentials (503). */
  'hue_not_configured',
  /** The account has no usable Hue connection: connect again in Settings. */
  'hue_not_connected',
  /** The Hue bridge refused the application key: create a new one in Settings. */
  'hue_unauthorized',
  /** Hue is connected but has no application key yet: create one in Settings. */
  'hue_no_application_key',
  /** Hue asked us to slow down (429). */
  'hue_busy',
  /** The account has no Govee API key stored: add one in Settings. */
  'govee_not_connected',
  /** Govee refused the API key (wrong, or replaced by a newer one): add the current key in Settings. */
  'govee_key_refused',
  /** An outside service (OpenF1, Hue, payments, mail) failed or could not be reached (502). */
  'upstream_unavailable',
  /** An outside service did not answer in time (504). */
  'upstream_timeout',
  /** A dependency of ours (the ticket store, the bot check) is down; try again shortly (503). */
  'service_unavailable',
  'internal_error',
  // OAuth 2.0 Device Authorization Grant (RFC 8628 §3.5, RFC 6749 §5.2): on the token route these
  // are also the `error` itself, as the RFC names it.
  /** The user has not yet approved or denied the code: poll again after the interval (400). */
  'authorization_pending',
  /** Polled faster than the interval: wait longer between polls (400). */
  'slow_down',
  /** The user denied the link (400). */
  'access_denied',
  /** The device code has expired (10 minutes): start again with a new code (400). */
  'expired_token',
  /** The device code is unknown or already spent (400). */
  'invalid_grant',
  /** The grant type is not the device code grant (400). */
  'unsupported_grant_type',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code an error status means when nothing more specific is known. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'invalid_input';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 502:
      return 'upstream_unavailable';
    case 503:
      return 'service_unavailable';
    case 504:
      return 'upstream_timeout';
    default:
      return status >= 500 ? 'internal_error' : 'invalid_input';
  }
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 416 | 429 | 500 | 502 | 503 | 504;
