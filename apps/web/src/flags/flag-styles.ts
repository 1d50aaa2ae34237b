export type FlagState =
  'green' | 'yellow' | 'red' | 'checkered' | 'safety' | 'vsc' | 'vsc_ending' | 'fastest_lap';

export interface FlagStyle {
  state: FlagState;
  label: string;
  /** Background utility from the design tokens (literal, so Tailwind sees it). */
  swatch: string;
  /** CSS colour for glows. */
  color: string;
  /** What the lights do (SPEC §4 Light effects). */
  effect: string;
}

export const FLAG_STYLES: readonly FlagStyle[] = [
  {
    state: 'green',
    label: 'Green flag',
    swatch: 'bg-flag-green',
    color: 'var(--color-flag-green)',
    effect: 'Full green for a moment, then settles at half brightness. Racing is on.',
  },
  {
    state: 'yellow',
    label: 'Yellow flag',
    swatch: 'bg-flag-yellow',
    color: 'var(--color-flag-yellow)',
    effect: 'A one-second yellow strobe, then steady yellow while any sector is under caution.',
  },
  {
    state: 'red',
    label: 'Red flag',
    swatch: 'bg-flag-red',
    color: 'var(--color-flag-red)',
    effect: 'A one-second red strobe, then steady red until the session resumes.',
  },
  {
    state: 'safety',
    label: 'Safety car',
    swatch: 'bg-flag-safety',
    color: 'var(--color-flag-safety)',
    effect: 'The yellow strobe and steady yellow, for as long as the safety car is out.',
  },
  {
    state: 'vsc',
    label: 'Virtual safety car',
    swatch: 'bg-flag-vsc',
    color: 'var(--color-flag-vsc)',
    effect: 'Orange while the field holds its delta.',
  },
  {
    state: 'vsc_ending',
    label: 'VSC ending',
    swatch: 'bg-flag-vsc-ending',
    color: 'var(--color-flag-vsc-ending)',
    effect: 'A deeper orange: racing resumes any second.',
  },
  {
    state: 'fastest_lap',
    label: 'Fastest lap',
    swatch: 'bg-flag-fastest-lap',
    color: 'var(--color-flag-fastest-lap)',
    effect: 'A purple flash, then back to the current flag.',
  },
  {
    state: 'checkered',
    label: 'Chequered flag',
    swatch: 'bg-checkered',
    color: 'var(--color-flag-checkered)',
    effect: 'A black-and-white strobe, then solid white. The session is over.',
  },
];
