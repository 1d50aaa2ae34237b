import {
  AFTER_GREEN_DIM_PERCENT,
  type AfterGreenAction,
  type EffectFlag,
  type FollowedSessionKind,
  type LookEffectKind,
  type SessionEndAction,
} from '@flaglight/core';

/** The flags in the order the section lists them: the race's own order of things. */
export const FLAG_ORDER: readonly EffectFlag[] = [
  'green',
  'yellow',
  'red',
  'safety',
  'vsc',
  'vsc_ending',
  'checkered',
  'fastest_lap',
];

export const FLAG_NAMES: Record<EffectFlag, string> = {
  green: 'Green flag',
  yellow: 'Yellow flag',
  red: 'Red flag',
  safety: 'Safety car',
  vsc: 'Virtual safety car',
  vsc_ending: 'VSC ending',
  checkered: 'Chequered flag',
  fastest_lap: 'Fastest lap',
};

/** A line under a flag's name: when it shows. */
export const FLAG_WHEN: Record<EffectFlag, string> = {
  green: 'Racing is on (also after a caution ends).',
  yellow: 'A sector or double yellow.',
  red: 'The session is stopped.',
  safety: 'The safety car is out.',
  vsc: 'A virtual safety car.',
  vsc_ending: 'The VSC is about to end.',
  checkered: 'The session is over.',
  fastest_lap: 'A new fastest lap; then the lights go back to the flag.',
};

export const EFFECT_NAMES: Record<LookEffectKind, string> = {
  steady: 'Steady',
  pulse: 'Pulse',
  strobe: 'Strobe',
  breathe: 'Breathe',
};

export const SESSION_NAMES: Record<FollowedSessionKind, string> = {
  practice: 'Practice',
  qualifying: 'Qualifying',
  sprint_qualifying: 'Sprint qualifying',
  sprint: 'Sprint',
  race: 'Race',
};

export const AFTER_GREEN_NAMES: Record<AfterGreenAction, string> = {
  keep: 'Keep the green',
  dim: `Dim it (to ${AFTER_GREEN_DIM_PERCENT} %)`,
  'give-back': 'Give the room back (each light as it was before the first flag)',
};

export const SESSION_END_NAMES: Record<SessionEndAction, string> = {
  'as-it-was': 'As it was',
  off: 'Turn the lights off',
  leave: 'Leave the last look',
};

export const LOOKS_TEXTS = {
  intro:
    'Choose how each flag looks on your lights and on this screen. Every browser and companion of your account follows it. Trackside is the default.',
  leave: 'Leave the lights as they are',
  leaveNote: 'This flag changes nothing.',
  colour: 'Colour',
  pickColour: 'Pick a colour',
  brightness: 'Brightness (%)',
  effect: 'Effect',
  pulses: 'Pulses',
  effectLength: 'Effect length (seconds)',
  effectLengthHint: (min: number, max: number) => `From ${min} s to ${max} s.`,
  settle: 'Then settle at (%)',
  settleMomentary: 'After it, the lights go back to the flag they showed.',
  presets: 'Presets',
  presetChosen: 'In use',
  reset: 'Reset to Trackside',
  custom: 'Your own looks (changed from a preset).',
  exportFile: 'Export looks',
  importFile: 'Import looks',
  importInput: 'Looks file to import',
  imported: (name: string) => `Imported "${name}". Your lights use it now.`,
  importUnreadable: 'This file could not be read.',
  noFlashing: 'No flashing',
  noFlashingHelp:
    'No light and no screen changes more than 3 times a second: strobes play steady, pulses slow to one a second.',
  moreLooks: 'Choose how each flag looks in Flags & effects',
  cap: 'Brightness cap (%)',
  capHelp: 'No look goes brighter. For night races.',
  try: 'Try',
  tryLabel: (flag: string) => `Try ${flag}`,
  tryNoLights: 'Connect your lights in Settings, then pick them on the dashboard.',
  tryScreenOnly: 'Played on the on-screen light only: no smart lights are picked yet.',
  openDashboard: 'Open the dashboard',
  preview: 'Try your looks',
  sampleHelp:
    'Try plays a flag now on your lights and the on-screen light, without the broadcast delay. A sample runs a short race in about 30 seconds.',
  playSample: 'Play a sample',
  screenPreview: 'The on-screen light, as on the dashboard.',
  screenPreviewOff: 'The on-screen light is not used (tick it on the dashboard to see looks here).',
  stopSample: 'Stop the sample',
  sampleStep: (step: number, steps: number, flag: string) => `Sample ${step} of ${steps}: ${flag}`,
  sampleProgress: 'Sample progress',
  sessions: 'Sessions the lights follow',
  sessionsNone: 'With none ticked, the lights follow no session (the dashboard still shows the flags).',
  afterGreen: 'When green has held',
  afterGreenSeconds: 'Seconds of green',
  sessionEnd: 'When the session ends',
  asItWasNote: 'Lights that cannot be read (some can only be written) are left as they are.',
  fieldError: (label: string, message: string) => `${label}: ${message}`,
  notSaved: 'Fix the fields marked below; until then your lights keep the last valid looks.',
} as const;
