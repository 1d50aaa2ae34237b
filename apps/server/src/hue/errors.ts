import type { ErrorCode } from '@flaglight/contract';
import { HttpError } from '../http/errors.js';
import type { HueFailureKind, HueRemoteClient } from './client.js';

/**
 * Server texts. Those that mean "connect again" contain 'not connected' or 'unauthorized', which
 * make the client mark the bridge provider disconnected (SPEC §8).
 */
export const HUE_MESSAGES = {
  notConfigured:
    'Hue is not configured on this server: set HUE_CLIENT_ID and HUE_CLIENT_SECRET (developers.meethue.com)',
  clientRefused: 'Hue is not configured correctly on this server: the Hue client id or secret was refused',
  notConnected: 'Hue is not connected. Connect your Hue account in Settings.',
  expired: 'Hue is not connected: the Hue authorization expired. Connect your Hue account again in Settings.',
  noApplicationKey: 'No Hue application key yet. Create one in Settings.',
  applicationKeyRefused:
    'Hue bridge unauthorized: the application key was not accepted. Create a new one in Settings.',
  applicationKeyInvalid: 'That application key was not accepted by your Hue bridge.',
  unreachable: 'Hue bridge unreachable. Check that it is powered and online, then try again.',
  busy: 'Hue is busy: too many light commands at once. Wait a moment and try again.',
  linkButton: 'Failed to create application key: the Hue bridge did not accept the pairing. Try again.',
  createKeyFailed: 'Failed to create application key',
  lightNotFound: 'Hue light not found',
  commandRefused: 'The Hue bridge refused the light command',
} as const;

/** The codes clients act on (the web app marks the bridge disconnected on the first two). */
const HUE_CODES: Partial<Record<keyof typeof HUE_MESSAGES, ErrorCode>> = {
  notConnected: 'hue_not_connected',
  expired: 'hue_not_connected',
  applicationKeyRefused: 'hue_unauthorized',
  noApplicationKey: 'hue_no_application_key',
  notConfigured: 'hue_not_configured',
  clientRefused: 'hue_not_configured',
  busy: 'hue_busy',
};

/** A Hue error with its message and, where clients act on it, its own code. */
export function hueHttpError(
  status: number,
  message: keyof typeof HUE_MESSAGES,
  extra: Record<string, unknown> = {},
): HttpError {
  return new HttpError(status, HUE_MESSAGES[message], extra, HUE_CODES[message]);
}

/** `hue_error` reasons of the OAuth callback (shown as 'Hue authorization failed: {reason}'). */
export const HUE_OAUTH_REASONS = {
  missingState: 'the sign-in answer carried no state',
  badState: 'the sign-in link expired or was already used. Please try again',
  otherBrowser:
    'the sign-in was finished in a different browser from the one that started it. Start again from Settings in this browser',
  denied: 'access was denied',
  missingCode: 'Hue sent no authorization code',
  codeRefused: 'Hue refused the authorization code. Please try again',
  notConfigured: 'Hue is not configured on this server',
  unreachable: 'Hue could not be reached. Please try again',
} as const;

/** The remote client, or 503 when the server has no Hue client credentials. */
export function requireHueClient(client: HueRemoteClient | undefined): HueRemoteClient {
  if (!client) throw hueHttpError(503, 'notConfigured');
  return client;
}

/** The HTTP error a failed remote call answers with; `fallback` words the kinds without their own. */
export function toHueHttpError(kind: HueFailureKind, detail: string, fallback: string): HttpError {
  switch (kind) {
    case 'token':
    case 'invalid-grant':
      return hueHttpError(403, 'expired');
    case 'invalid-client':
      return hueHttpError(503, 'clientRefused');
    case 'app-key':
      return hueHttpError(403, 'applicationKeyRefused');
    case 'not-found':
      return hueHttpError(404, 'lightNotFound');
    case 'unreachable':
      return hueHttpError(502, 'unreachable', { details: detail });
    case 'busy':
      return hueHttpError(429, 'busy', { details: detail });
    default:
      return new HttpError(400, fallback, { details: detail });
  }
}
