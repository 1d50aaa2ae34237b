/** The live connection's texts; the quoted ones are SPEC §2, §8 verbatim. */
export const LIVE_TEXTS = {
  setupRequired: 'Setup Required',
  connect: 'Connect',
  connectReplay: 'Watch a replay',
  disconnect: 'Disconnect',
  connecting: 'Connecting…',
  /** The connection line while the server is out of reach (SPEC §8 names no text for it). */
  reconnecting: 'Reconnecting…',
  connectionLost:
    "Flaglight's server does not answer. Trying again every few seconds; your lights keep the last flag until it is back.",
  reconnected: 'Connected again: your lights follow the race again.',
  connectionFailedTitle: 'Connection Failed',
  connectionFailedMessage: 'Could not connect to live session. Please try again.',
  noLiveSession: 'No live session found',
  /** SPEC §8 "Testing without lights". */
  noLights: 'Lights not connected or no devices selected.',
  noLightsHelp: 'Go to Settings to connect your lights, then select them in Light Control.',
  testSent: (flag: string) => `Sent ${flag} to your lights.`,
  testSending: (flag: string) => `Sending ${flag} to your lights…`,
  testRefused: (flag: string, reason: string | null, browserPlayed: boolean) =>
    `Your companion did not play ${flag}${reason ? `: ${reason}` : ': no companion is online now.'}${
      browserPlayed ? " This browser's lights played it." : ''
    }`,
  testTooMany: (perMinute: number) => `more than ${perMinute} tests in a minute. Try again in a minute.`,
  testServerFault: "Flaglight's server had a problem.",
  testPaused: 'its lights are paused (Resume lights on its status page).',
  testOffline: 'Flaglight cannot reach its server.',
  setupHint:
    'Tick "Use this screen as a light" in Light Control, or connect a light provider in Settings and select at least one light.',
} as const;
