import { LIGHT_ERROR_MESSAGES } from '@flaglight/lights';

/** SPEC §5 and §8 texts of the light providers in the web app, verbatim, in one place. */
export const LIGHTS_TEXTS = {
  ...LIGHT_ERROR_MESSAGES,
  connectionError: 'Connection Error',
  popupBlocked: 'Popup blocked. Please allow popups for this site.',
  oauthTimedOut: 'OAuth flow timed out. Please try again.',
  hueAuthFailed: (reason: string) => `Hue authorization failed: ${reason}`,
  hueStartFailed: 'Failed to start Hue connection',
  hueCreateKeyFailed: 'Failed to create application key',
  hueStoreKeyFailed: 'Failed to store application key',
  hueKeyRequired: 'Please enter an application key.',
  hueFetchLightsFailed: 'Failed to fetch lights',
  lifxConnected: 'LIFX connected',
  hueConnected: 'Philips Hue connected',
  goveeConnected: 'Govee connected',
  goveeConnectFailed: 'Failed to connect to Govee',
  goveeKeyRequired: 'Please enter your Govee API key.',
  goveeSolidOnly:
    "Govee's cloud shows solid colours only: a flashing flag shows its colour, the chequered flag shows white.",
  noLights: (provider: string) =>
    `${provider} not connected or no devices selected. Go to Settings to connect it, then pick lights in Light Control.`,
} as const;
