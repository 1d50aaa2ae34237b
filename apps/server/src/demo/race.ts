// Where demo mode's race starts and loops. No simulator is imported here: the public config (live
// mode too) reads the recording's name.

/**
 * `DEMO_RACE=full`: the demo joins the Saudi race this far in (the pit exit opens 4.5 minutes
 * later) and plays it to the chequered flag.
 */
export const DEMO_FULL_RACE_POSITION_MINUTES = 75;

/**
 * `DEMO_RACE=loop` (the default): the demo joins 27 s before the double yellow that opens the
 * race's VSC stretch (double yellow, four VSCs with their endings and track clears) and loops that
 * stretch, so a newcomer sees a flag change within a minute and another within a few minutes, for
 * as long as the server runs. Each pass is a new session of the same recording, times shifted to now.
 */
export const DEMO_LOOP_FROM_MINUTES = 203.6;
/** …until just after the fourth VSC's track clear (227.3). */
export const DEMO_LOOP_TO_MINUTES = 227.6;

/** What the dashboard says of the demo race: recorded, never live. */
export const DEMO_RECORDING_NAME = '2021 Saudi Arabian GP';

export type DemoRace = 'loop' | 'full';

/** Where the demo race starts for `DEMO_RACE`. */
export function demoRacePosition(race: DemoRace): number {
  return race === 'loop' ? DEMO_LOOP_FROM_MINUTES : DEMO_FULL_RACE_POSITION_MINUTES;
}
