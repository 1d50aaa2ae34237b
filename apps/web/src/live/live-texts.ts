/** The live connection's texts; the quoted ones are SPEC §2, §8 verbatim. */
export const LIVE_TEXTS = {
  setupRequired: 'Setup Required',
  connect: 'Connect',
  connectReplay: 'Watch a replay',
  disconnect: 'Disconnect',
  connecting: 'Connecting…',
  connectionFailedTitle: 'Connection Failed',
  connectionFailedMessage: 'Could not connect to live session. Please try again.',
  noLiveSession: 'No live session found',
  /** SPEC §8 "Testing without lights". */
  noLights: 'Lights not connected or no devices selected.',
  noLightsHelp: 'Go to Settings to connect your lights, then select them in Light Control.',
  setupHint: 'Connect a light provider in Settings, then select at least one light in Light Control.',
} as const;
