// How much slower than the CI machine the tests were tuned on this host is, and the tests' waits
// stretched by it (decision 054).
//
// A wait's ceiling costs a passing test nothing: it polls and goes on the moment what it waits for
// is there. Only a ceiling that is too short costs, and it costs a failure. The tests' ceilings
// (Playwright's 30 s per test and 5 s per expectation, Vitest's per-test limits) were tuned on the
// 2-core CI machine with every lane busy. A host about twice as slow missed them in a dozen places,
// all waiting for something that did come later. `npm test` measures the host once, before any lane
// starts, and hands the result to every lane as FLAGLIGHT_TEST_PACE; the ceilings are multiplied by
// it (`paced`), and in CI by 3 whatever it reads (CEILING_PACE). What a passing test waits out whole
// is not a ceiling (the driver contract's 250 ms of quiet, which each of its checks waits out): it
// is multiplied by the reading alone (`stretched`). Nothing the product promises is stretched: a
// flag's length, a broadcast delay and a reconnect's deadline stay what they are.
import { Worker } from 'node:worker_threads';

/** The environment variable that carries the pace to every test process. */
export const PACE_ENV = 'FLAGLIGHT_TEST_PACE';
/** A pace outside these bounds is a misreading (a host 3× slower is not one we test on). */
const MIN_PACE = 1;
const MAX_PACE = 3;
/**
 * Milliseconds the slower of two threads took for CALIBRATION's work on the CI machine the tests
 * were tuned on, quiet: 194–219 (nine runs). The upper end, so that machine reads 1.
 */
const REFERENCE_MS = 220;

/** Loops and short-lived objects, as the tests' own JavaScript does: ~0.2 s of one core there. */
const CALIBRATION = `
const { parentPort } = require('node:worker_threads');
const started = performance.now();
const cells = new Float64Array(4096);
let sum = 0;
for (let round = 0; round < 6000; round++) {
  for (let i = 0; i < 4096; i++) {
    cells[i] = cells[i] * 0.5 + ((i ^ round) & 7);
    sum += cells[i];
  }
}
const made = [];
for (let i = 0; i < 60000; i++) made.push({ i, key: 'k' + (i % 97) });
parentPort.postMessage({ ms: performance.now() - started, sum: sum + made.length });
`;

function timeOneThread() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CALIBRATION, { eval: true });
    worker.once('message', ({ ms }) => {
      void worker.terminate();
      resolve(ms);
    });
    worker.once('error', reject);
  });
}

/** A pace read from the environment: a number within bounds, else 1. */
export function readPace(value) {
  const pace = Number(value);
  return Number.isFinite(pace) ? Math.min(MAX_PACE, Math.max(MIN_PACE, pace)) : MIN_PACE;
}

/** The slower of two threads doing the same work at once (the tests use both cores). */
async function timeTwoThreads() {
  const [a, b] = await Promise.all([timeOneThread(), timeOneThread()]);
  return Math.max(a, b);
}

/**
 * A slower core, a core shared with a busy neighbour (seen here: one of the two took 340 ms for
 * 210 of the other's, for minutes on end) and a host that gives this one less than two cores all
 * read as a higher pace. The median of three rounds, about 1 s here.
 * Returns the pace, rounded to a tenth, and the milliseconds it was read from.
 */
export async function measureHostPace() {
  const rounds = [];
  for (let round = 0; round < 3; round++) rounds.push(await timeTwoThreads());
  const ms = rounds.sort((a, b) => a - b)[1];
  return { pace: Math.round(readPace(ms / REFERENCE_MS) * 10) / 10, ms: Math.round(ms) };
}

/**
 * This process's pace (1 unless `npm test`, or the developer, set FLAGLIGHT_TEST_PACE). Spelled out,
 * not `process.env[PACE_ENV]`, so that scripts/check-env-docs.mjs sees the variable read.
 */
export const TEST_PACE = readPace(process.env.FLAGLIGHT_TEST_PACE);

/**
 * In CI every ceiling stretches by the most a pace can read, whatever the reading. The reading sees
 * the host only at the run's start: CI read 1.5 or less there on a host that then ran its dashboards
 * and full-page screenshots over 7.5 s late, both tries (stop 48). A ceiling costs a passing test
 * nothing, so in CI nothing is gained by a tight one; a failing test takes longer to fail.
 */
export const CEILING_PACE = process.env.CI ? MAX_PACE : TEST_PACE;

/** `ms` stretched for a wait's ceiling (a poll that goes on the moment it holds), never for a time the product keeps. */
export const paced = (ms) => Math.round(ms * CEILING_PACE);

/**
 * `ms` stretched by the host's reading alone: for a time a passing test waits out whole (the driver
 * contract's quiet), or a margin that is part of what a test asserts (test-flags' reading of every
 * light after a flag's length), which a ceiling's stretch would make too loose.
 */
export const stretched = (ms) => Math.round(ms * TEST_PACE);

/**
 * Polls `condition` every `everyMs` until it holds; throws once `timeoutMs`, a ceiling (paced), has
 * passed. The tests' own `until`s bind their usual limit to it.
 */
export async function pollUntil(condition, timeoutMs, everyMs = 20) {
  await pollFor(condition, 'the condition', timeoutMs, everyMs);
}

/**
 * Awaits `check` every `everyMs` until it gives a truthy value, and returns it; throws `timed out
 * waiting for <what>` once `timeoutMs`, a ceiling (paced), has passed. `what` may be a function,
 * read only then (a log's last lines, say).
 */
export async function pollFor(check, what, timeoutMs, everyMs = 25) {
  const end = Date.now() + paced(timeoutMs);
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
