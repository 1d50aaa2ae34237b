import path from 'node:path';
import { REPO_ROOT } from '../shared/repo.js';

export const EXECUTABLE = path.join(REPO_ROOT, 'apps/companion/dist/flaglight-companion-linux-x64');
export const COMPANION_SOURCES = path.join(REPO_ROOT, 'apps/companion/src/main.ts');
export const FIXTURE = '2021-saudi-arabia-race';
/** Green, 9 s of race before a double yellow; VSCs and greens follow until minute 227.3. */
export const START_MINUTES = 203.9;
export const SPEED = 20;
/** 24 race minutes at speed 20 (to minute ~227.9). */
export const RACE_MS = 72_000;
export const DELAYED_SECONDS = 3;
export const WINDOW_MS = 20;
/** The whole run stops here, whatever it is doing. */
export const DEADLINE_MS = 240_000;
/** A packet this long before the change's target still counts as the change's (clocks are shared). */
export const EARLY_SLACK_MS = 300;
export const SET_TYPES = new Set([
  'LightSetColor',
  'LightSetWaveform',
  'LightSetWaveformOptional',
  'LightSetPower',
  'SetPower',
]);
