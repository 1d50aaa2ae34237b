// Types of scripts/test-pace.mjs, for the TypeScript tests and configs that stretch their waits.
/** The environment variable that carries the pace to every test process. */
export const PACE_ENV: 'FLAGLIGHT_TEST_PACE';
/** A pace read from the environment: a number within bounds, else 1. */
export function readPace(value: unknown): number;
/** Times the same work on two threads at once; the pace (a tenth) and the milliseconds it was read from. */
export function measureHostPace(): Promise<{ pace: number; ms: number }>;
/** This process's pace (1 unless `npm test`, or the developer, set FLAGLIGHT_TEST_PACE). */
export const TEST_PACE: number;
/** The ceilings' stretch: the pace, or in CI the most a pace can read (3). */
export const CEILING_PACE: number;
/** `ms` stretched for a wait's ceiling (CEILING_PACE), never for a time the product keeps. */
export function paced(ms: number): number;
/** `ms` stretched by the host's reading alone: a time a passing test waits out, or a margin it asserts. */
export function stretched(ms: number): number;
/** Polls `condition` every `everyMs` (20) until it holds; throws after `timeoutMs`, stretched (paced). */
export function pollUntil(condition: () => boolean, timeoutMs: number, everyMs?: number): Promise<void>;
/** Awaits `check` every `everyMs` (25) until it is truthy and returns it; throws after `timeoutMs`, stretched (paced). */
export function pollFor<T>(
  check: () => T | Promise<T>,
  what: string | (() => string),
  timeoutMs: number,
  everyMs?: number,
): Promise<NonNullable<T>>;
