// Vitest global setup: when the whole run is over, no process it started may still be running
// (a demo server a test forgot to end holds its port and memory). Found ones are listed, ended,
// and fail the run.
import { formatLeftovers, killLeftovers, waitForLeftovers } from './leftover-processes.mjs';

export default function setup() {
  const since = Date.now();
  return async () => {
    const leftovers = await waitForLeftovers({ since });
    if (leftovers.length === 0) return;
    killLeftovers(leftovers);
    // Vitest reports an error thrown here but still exits 0: the exit code says it.
    process.exitCode = 1;
    throw new Error(
      `The test run left ${leftovers.length} process(es) running (now ended):\n${formatLeftovers(leftovers)}`,
    );
  };
}
