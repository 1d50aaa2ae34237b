// Vitest global setup: when the whole run is over, no process it started may still be running
// (a demo server a test forgot to end holds its port and memory). Found ones are listed, ended,
// and fail the run.
import { randomUUID } from 'node:crypto';
import { formatLeftovers, killLeftovers, RUN_VARIABLE, waitForLeftovers } from './leftover-processes.mjs';

export default function setup() {
  const since = Date.now();
  // Workers, and what tests spawn with their environment, carry the run's id: only what this run
  // started is counted (a developer's own processes in the checkout are not).
  const run = randomUUID();
  process.env[RUN_VARIABLE] = run;
  return async () => {
    const leftovers = await waitForLeftovers({ since, run });
    if (leftovers.length === 0) return;
    killLeftovers(leftovers);
    // Vitest reports an error thrown here but still exits 0: the exit code says it.
    process.exitCode = 1;
    throw new Error(
      `The test run left ${leftovers.length} process(es) running (now ended):\n${formatLeftovers(leftovers)}`,
    );
  };
}
