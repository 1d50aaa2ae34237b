/**
 * Live sources benchmark: the demo server's F1 live-timing feed (simulator, delay 0)
 * and OpenF1 behind it. Prints figures, asserts nothing:
 * - TrackStatus line received by the server's client → flag event published (p50, p99, max);
 * - failover: the feed goes silent (stall) or refuses (down) → OpenF1 active;
 * - reconnect: the simulator answers again after an outage of 3, 12 and 25 s → F1 live timing active;
 * - upstream: F1 live-timing connections with 200 subscribers.
 * Run: npm run bench:sources -w @flaglight/bench
 */
import { DEMO_REPLAY_FIXTURE } from '@flaglight/sims';
import type { FlagEvent } from '../apps/server/src/live/types.js';
import { buildTestApp } from '../apps/server/test/helper.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const t = await buildTestApp();
const sims = t.context.sims!;
const hub = t.context.live.hub;
const feed = t.context.live.f1!;

const f1State = () => hub.sources().find((s) => s.name === 'f1-live-timing')?.state;
const openf1State = () => hub.sources().find((s) => s.name === 'openf1')?.state;

async function until(check: () => boolean, limitMs = 120_000): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > limitMs) return Infinity;
    await sleep(20);
  }
  return performance.now() - start;
}

// 1. TrackStatus → event stream. The race from its first safety car to the flag, at 60×.
const arrivals = new Map<string, number>();
const offFeed = feed.subscribe((event) => {
  if (event.type === 'trackStatus') arrivals.set(event.event.status, event.event.receivedAt);
});
const latencies: number[] = [];
let flags = 0;
sims.openf1.control.setReplays([{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: 137, speed: 60 }]);
await until(() => f1State() === 'active');
const subscribers: (() => void)[] = [];
for (let i = 0; i < 200; i += 1) {
  const sub = await hub.subscribe(undefined, {
    onFlag(event: FlagEvent) {
      if (i !== 0) return;
      flags += 1;
      const { cause } = event.data;
      const at = cause.source === 'track_status' && cause.status ? arrivals.get(cause.status) : undefined;
      if (at !== undefined) latencies.push(Date.now() - at);
    },
    onStatus() {},
  });
  subscribers.push(sub.unsubscribe);
}
const connections = sims.f1live.control.state().connections.length;
await sleep(((250 - 137) * 60_000) / 60 + 2_000);
offFeed();
latencies.sort((a, b) => a - b);

// 2. Failover, twice each way.
sims.openf1.control.setSpeed(1);
const failover: Record<string, number[]> = { stall: [], down: [] };
const reconnect: Record<string, number[]> = {};
for (const mode of ['stall', 'down'] as const) {
  for (let i = 0; i < 2; i += 1) {
    await until(() => f1State() === 'active');
    sims.f1live.control.setMode(mode);
    failover[mode]!.push(await until(() => f1State() === 'down' && openf1State() === 'active'));
    sims.f1live.control.setMode('normal');
  }
}

// 3. Reconnect after outages of several lengths (the server's back-off: 1 s, 2 s, then every 4 s).
for (const outage of [3_000, 12_000, 25_000]) {
  await until(() => f1State() === 'active');
  sims.f1live.control.setMode('down');
  await sleep(outage);
  sims.f1live.control.setMode('normal');
  reconnect[`${outage / 1000} s`] = [await until(() => f1State() === 'active')];
}

const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : 'never');
console.log('Live sources, demo server, F1 live-timing simulator, delay 0');
console.log(
  `  TrackStatus → flag event: ${latencies.length} changes caused by TrackStatus (${flags} flags in all); ` +
    `p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1) ?? NaN)} (target ≤ 200 ms)`,
);
console.log(
  `  Failover to OpenF1: feed silent ${failover.stall!.map(ms).join(', ')}; feed refusing ${failover.down!.map(ms).join(', ')} (target ≤ 10 s)`,
);
console.log(
  `  Reconnect after the simulator returns: ${Object.entries(reconnect)
    .map(([outage, [took]]) => `${outage} outage → ${ms(took ?? NaN)}`)
    .join('; ')} (target ≤ 5 s)`,
);
console.log(`  F1 live-timing connections with 200 subscribers: ${connections} (target 1 per instance)`);

for (const unsubscribe of subscribers) unsubscribe();
await t.close();
process.exit(0);
