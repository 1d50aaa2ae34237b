/** SPEC §8 light error texts, verbatim, in one place. */
export const LIGHT_ERROR_MESSAGES = {
  lifxInvalidToken: 'Invalid LIFX API token',
  lifxConnectionTimedOut: 'Connection timed out',
  lifxRequestTimedOut: 'LIFX API request timed out',
  lifxConnectFailed: 'Failed to connect to LIFX',
  lifxSetFlagFailed: 'Failed to set flag',
  lifxTokenNotSet: 'LIFX API token not set',
  hueFetchLightsFailed: 'Failed to fetch lights',
  hueUnauthorized: 'Hue bridge unauthorized',
  hueNotConnected: 'Hue bridge not connected',
  hueCommandFailed: 'Failed to set flag',
  goveeNotConnected: 'Govee is not connected',
  goveeFetchLightsFailed: 'Failed to fetch Govee lights',
  goveeCommandFailed: 'Failed to set flag on Govee lights',
} as const;

export type LightErrorKind =
  'auth' | 'not-configured' | 'timeout' | 'network' | 'rate-limit' | 'not-found' | 'bad-request' | 'server';

/** The one shape every driver reports errors in. */
export interface LightErrorInfo {
  kind: LightErrorKind;
  message: string;
}

export class LightError extends Error implements LightErrorInfo {
  override readonly name = 'LightError';

  constructor(
    readonly kind: LightErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  toJSON(): LightErrorInfo {
    return { kind: this.kind, message: this.message };
  }
}

/** Any thrown value as `{ kind, message }` (unknown errors count as network failures). */
export function toLightErrorInfo(
  error: unknown,
  fallback: string = LIGHT_ERROR_MESSAGES.lifxConnectFailed,
): LightErrorInfo {
  if (error instanceof LightError) return { kind: error.kind, message: error.message };
  return { kind: 'network', message: fallback };
}
