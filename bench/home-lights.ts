/**
 * Home Assistant and WLED through the companion's drivers and effect player: the time from a flag
 * (delay 0) to the first request the simulator receives for it, and the requests per light per
 * flag. Prints figures, asserts nothing. `npm run bench:home-lights -w @flaglight/bench`
 *
 * One Home Assistant simulator with its 6 demo lights (one driver, one player over all of them, as
 * the companion's lights hub runs it) and 2 WLED devices (one driver, one player). For each run a
 * flag starts at t0 on both players at once; the simulators timestamp what they receive. Flags
 * are 2 s apart so pacing (400 ms per Home Assistant entity) never queues one behind another.
 */
import type { EffectFlag } from '@flaglight/core';
import { createEffectPlayer } from '@flaglight/lights';
import { createHomeAssistantDriver, createWledDriver } from '@flaglight/lights/lan';
import { startHomeAssistantSim, startWledSim } from '@flaglight/sims';
import { now, sleep } from './shared/time.js';

const RUNS = 40;
const FLAGS: EffectFlag[] = ['yellow', 'green', 'red', 'vsc', 'vsc_ending', 'checkered', 'safety', 'green'];
const GAP_MS = 2_000;
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const line = (name: string, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${name}: p50 ${pct(sorted, 50).toFixed(1)} ms, p99 ${pct(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms (${sorted.length} flags; target p99 ≤ 50 ms)`;
};

async function main(): Promise<void> {
  const ha = await startHomeAssistantSim({ now });
  const wled = [
    await startWledSim({ now, name: 'Strip 1', mac: 'a0b1c2d3e401' }),
    await startWledSim({ now, name: 'Strip 2', mac: 'a0b1c2d3e402' }),
  ];
  const haDriver = createHomeAssistantDriver({ url: ha.url, token: 'demo-ha-token', refreshMs: 0 });
  const wledDriver = createWledDriver({
    addresses: wled.map((d) => ({ host: d.host, port: d.port })),
    healthIntervalMs: 0,
  });
  try {
    const haLights = await haDriver.connect();
    const wledLights = await wledDriver.connect();
    const haPlayer = createEffectPlayer({ driver: haDriver, devices: () => haLights.map((d) => d.id) });
    const wledPlayer = createEffectPlayer({ driver: wledDriver, devices: () => wledLights.map((d) => d.id) });
    const haTimes: number[] = [];
    const wledTimes: number[] = [];
    const haCalls: Record<string, number[]> = {};
    const wledPosts: Record<string, number[]> = {};
    for (let i = 0; i < RUNS; i++) {
      const flag = FLAGS[i % FLAGS.length] as EffectFlag;
      const t0 = now();
      haPlayer.play(flag);
      wledPlayer.play(flag);
      await sleep(GAP_MS);
      const haReqs = ha.requests().filter((r) => r.at >= t0 && r.path.startsWith('/api/services/light/'));
      const wledReqs = wled.flatMap((d) => d.requests()).filter((r) => r.at >= t0 && r.method === 'POST');
      const firstHa = Math.min(...haReqs.map((r) => r.at));
      const firstWled = Math.min(...wledReqs.map((r) => r.at));
      if (Number.isFinite(firstHa)) haTimes.push(firstHa - t0);
      if (Number.isFinite(firstWled)) wledTimes.push(firstWled - t0);
      (haCalls[flag] ??= []).push(haReqs.length / haLights.length);
      (wledPosts[flag] ??= []).push(wledReqs.length / wledLights.length);
    }
    const perFlag = (counts: Record<string, number[]>) =>
      Object.entries(counts)
        .map(([flag, n]) => `${flag} ${(n.reduce((a, b) => a + b, 0) / n.length).toFixed(1)}`)
        .join(', ');
    console.log(
      `Home Assistant (${haLights.length} lights) and WLED (${wledLights.length} devices), simulators on 127.0.0.1, delay 0`,
    );
    console.log(`  ${line('flag → first Home Assistant service call', haTimes)}`);
    console.log(`  ${line('flag → first WLED POST /json/state', wledTimes)}`);
    console.log(`  Home Assistant calls per light per flag (within ${GAP_MS} ms): ${perFlag(haCalls)}`);
    console.log(`  WLED requests per device per flag (within ${GAP_MS} ms): ${perFlag(wledPosts)}`);
  } finally {
    await haDriver.close?.();
    await wledDriver.close?.();
    await ha.close();
    for (const d of wled) await d.close();
  }
}

await main();
