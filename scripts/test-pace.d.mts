// Types of scripts/test-pace.mjs, for the TypeScript tests and configs that stretch their waits.
/** The environment variable that carries the pace to every test process. */
export const PACE_ENV: 'FLAGLIGHT_TEST_PACE';
/** A pace read from the environment: a number within bounds, else 1. */
export function readPace(value: unknown): number;
/** Times the same work on two threads at once; the pace (a tenth) and the milliseconds it was read from. */
export function measureHostPace(): Promise<{ pace: number; ms: number }>;
/** This process's pace (1 unless `npm test`, or the developer, set FLAGLIGHT_TEST_PACE). */
export const TEST_PACE: number;
/** `ms` stretched by this host's pace: for a wait's ceiling, never for a time the product keeps. */
export function paced(ms: number): number;
