/**
 * The desktop companion's timing and footprint (DESIGN §7: a flag reaches the LAN lights within
 * 50 ms at p99 with no delay, a delayed change fires within ±20 ms of its target). Prints figures,
 * asserts nothing; exits non-zero only when the set-up fails. `npm run bench:companion -w @flaglight/bench`.
 *
 * A demo server of its own (ephemeral ports, 127.0.0.1) with its LAN simulator's 6 virtual LIFX
 * bulbs; an account made through the API; the companion (the built Linux executable when there is
 * one, else the sources under tsx) linked by approving its code with the account's token. This
 * process follows the account's event stream too, on the same machine, so it sees each flag event
 * when the companion does. The Saudi 2021 race is replayed from minute 203.9 at speed 20 (a double
 * yellow, four VSCs and their endings, the greens after them) twice: with the delay at 0, then at 3 s.
 *
 * - Delay 0: offset = the first packet a bulb received for the change (its receive log, the
 *   change's look: a SetColor at full brightness in the flag's hue) − the event's arrival here,
 *   and − its `emittedAt`.
 * - Delay 3 s: offset = that first packet − (arrival here + 3000 ms).
 * - The companion's RSS (VmRSS) and CPU (utime + stime) read from /proc every second.
 * - Start-up: spawn → first 200 from its /api/status, and the LAN commands per flag per bulb.
 */
import { type PhaseResult } from './companion/attribution.js';
import { DEADLINE_MS, DELAYED_SECONDS } from './companion/config.js';
import { followStream } from './companion/event-stream.js';
import { printReport } from './companion/figures.js';
import { loadAverage, sampleEverySecond } from './companion/proc-sampling.js';
import { runRace } from './companion/race-run.js';
import { setUpRig } from './companion/setup.js';
import { measureStartups } from './companion/startups.js';
import { runBench } from './shared/run-bench.js';

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const rig = await setUpRig();
  const stream = followStream(rig.base, rig.token);
  const footprint = sampleEverySecond(rig.pid);
  const results: PhaseResult[] = [];
  try {
    for (const delaySeconds of [0, DELAYED_SECONDS]) results.push(await runRace(rig, stream, delaySeconds));
  } finally {
    footprint.stop();
    stream.close();
  }
  footprint.take();
  const startups = await measureStartups(rig);
  printReport({ launch: rig.launch, loadBefore, results, footprint, startups });
}

await runBench('bench:companion', DEADLINE_MS, main);
