/** The desktop companion's texts on the dashboard, in one place. */

const lights = (n: number) => `${n} light${n === 1 ? '' : 's'}`;

export const COMPANION_TEXTS = {
  tab: 'Companion',
  everyLight:
    'Every light the companion finds follows the flags, new ones too. Untick the ones that should not.',
  someTicked: 'The ticked lights follow the flags; lights found later stay off until you tick them.',
  nothingTicked:
    'No light is ticked: the companion drives none of its lights. Tick the lights that should follow the flags.',
  driveEveryLight: 'Drive every light it finds',
  noneLinked:
    'No Flaglight Companion is linked. It drives the LIFX, Hue, Nanoleaf and Govee lights on your home network from a computer, with no browser open.',
  linkSteps:
    'Install it and start it: it shows a code and opens the link page (/#/link), where you approve it while signed in.',
  downloadWindows: 'Download for Windows',
  downloadLinux: 'Download for Linux',
  openLinkPage: 'Open the link page',
  noLightsYet: (name: string) => `${name} has not reported any lights yet.`,
  loadFailed: 'Your companions could not be loaded. Please try again.',
  loading: 'Loading your companions…',
  onLiveNotReplay: (name: string, driven: number) =>
    `Flaglight Companion ${name}: stays on the live race, not this replay; drives ${lights(driven)}`,
  online: (name: string, driven: number) =>
    `Flaglight Companion ${name}: following, drives ${lights(driven)}`,
  offline: (name: string, lastSeen: string) => `Flaglight Companion ${name}: offline, last seen ${lastSeen}`,
  paused: (name: string) =>
    `Flaglight Companion ${name}: paused, its lights keep their look (Resume lights on its status page)`,
  waiting: (name: string) => `Flaglight Companion ${name}: waiting for a live session`,
  reconnecting: (name: string, why: string | null) =>
    `Flaglight Companion ${name}: reconnecting${why ? ` (${why})` : ''}`,
  refused: (name: string, why: string | null) =>
    `Flaglight Companion ${name}: not following${why ? `: ${why}` : ''}`,
  never: 'never',
  testHere: 'Test on this computer',
  whyPermission:
    'Your browser may ask to let this page connect to devices on your local network: allow it, so the page can reach the companion on this computer.',
  checking: 'Asking the companion on this computer…',
  tested: (driven: number, stream: 'following' | 'waiting' | 'other') =>
    `Flaglight Companion on this computer: ${
      stream === 'following'
        ? 'following'
        : stream === 'waiting'
          ? 'waiting for a live session'
          : 'not following yet'
    }, drives ${lights(driven)}`,
  testedNote: 'Its lights play yellow now.',
  noAnswer:
    'No companion answered on this computer. Is it running? If your browser asked about your local network, allow it and try again.',
  notLinked: 'The Flaglight Companion on this computer is not linked yet.',
  notLinkedCode: (code: string) => `Open the link page and enter ${code}.`,
  testRefused: (message: string) => `The companion on this computer did not play the test: ${message}`,
  sharedQuestion: (n: number) =>
    `Your Flaglight Companion can drive ${n} of these lights too. Who should drive them?`,
  driverCompanion: 'Companion (recommended)',
  driverBrowser: 'This browser',
  testLights: 'Test lights',
  testSent: (n: number) =>
    n === 0
      ? 'No companion is online to play the test.'
      : `Testing on ${n === 1 ? 'your companion' : `${n} companions`}: green`,
  testFailed: 'The test could not reach your companions. Please try again.',
  nanoleafTitle: 'Nanoleaf',
  nanoleafIntro: 'Pair a Nanoleaf controller with the companion on this computer.',
  nanoleafAddress: 'Controller address (optional)',
  nanoleafAddressHint:
    'Only if the companion does not find it: Nanoleaf app → the device → Settings → IP address.',
  nanoleafPair: 'Pair a Nanoleaf',
  nanoleafHold: 'Hold the power button on your Nanoleaf controller for 5–7 seconds until the lights flash.',
  nanoleafWaiting: (secondsLeft: number) =>
    secondsLeft > 0
      ? `Waiting for the controller: ${secondsLeft} s left.`
      : 'Waiting for the companion to finish…',
  nanoleafWaitLabel: 'Time left to press the power button',
  nanoleafPaired: (name: string) =>
    `Paired with ${name}. It joins this list when the companion next reports its lights.`,
  nanoleafRefused: (message: string) => `The companion could not pair: ${message}`,
  nanoleafUnsupported:
    'The companion on this computer cannot pair a Nanoleaf yet. Update the Flaglight Companion, then try again.',
  nanoleafNoAnswer:
    'No companion answered on this computer. Pair from the computer the Flaglight Companion runs on, with it started. If your browser asked about your local network, allow it and try again.',
  tryAgain: 'Try again',
  goveeLanNote:
    'Have Govee lights? They show here once “LAN Control” is on for each one in the Govee Home app (the device’s settings).',
  goveeHelp: 'Govee help',
} as const;

export const DOWNLOADS = {
  windows: '/api/downloads/flaglight-setup',
  linux: '/api/downloads/flaglight-linux',
} as const;
