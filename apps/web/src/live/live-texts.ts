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
  setupHint:
    'Tick "Use this screen as a light" in Light Control, or connect a light provider in Settings and select at least one light.',
} as const;
