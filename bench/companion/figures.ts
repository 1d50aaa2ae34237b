/** The printed figures: nothing here measures, and nothing is asserted. */
import path from 'node:path';
import { REPO_ROOT } from '../shared/repo.js';
import { type PhaseResult } from './attribution.js';
import { type Launch } from './companion-process.js';
import { DELAYED_SECONDS, EXECUTABLE, FIXTURE, RACE_MS, SPEED, START_MINUTES, WINDOW_MS } from './config.js';
import { type Footprint, loadAverage, type Sample } from './proc-sampling.js';
import { type Startups } from './startups.js';

export interface Report {
  launch: Launch;
  loadBefore: string;
  results: PhaseResult[];
  footprint: Footprint;
  startups: Startups;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function row(name: string, values: number[], withinMs?: number): void {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(1).padStart(7);
  const within =
    withinMs === undefined
      ? ''
      : `  within ±${withinMs} ms ${
          sorted.length
            ? ((100 * sorted.filter((v) => Math.abs(v) <= withinMs).length) / sorted.length).toFixed(0)
            : '–'
        }%`;
  console.log(
    `  ${name.padEnd(54)} n=${String(sorted.length).padStart(3)}  p50 ${f(quantile(sorted, 0.5))} ms  p99 ${f(
      quantile(sorted, 0.99),
    )} ms  max ${f(sorted.at(-1) ?? NaN)} ms${within}`,
  );
}

function printTiming(result: PhaseResult): void {
  const vsArrival: number[] = [];
  const vsEmitted: number[] = [];
  const firstBulb: number[] = [];
  const lastBulb: number[] = [];
  const transit: number[] = [];
  let missed = 0;
  for (const change of result.changes) {
    transit.push(change.arrival.arrivedAt - change.arrival.emittedAt);
    const times = [...change.first.values()].filter((t): t is number => t !== null);
    missed += change.first.size - times.length;
    for (const t of times) {
      vsArrival.push(t - change.targetMs);
      vsEmitted.push(t - (change.arrival.emittedAt + result.delayMs));
    }
    if (times.length) {
      firstBulb.push(Math.min(...times) - change.targetMs);
      lastBulb.push(Math.max(...times) - change.targetMs);
    }
  }
  const target = result.delayMs === 0 ? '' : ` + ${result.delayMs} ms`;
  const within = result.delayMs === 0 ? undefined : WINDOW_MS;
  console.log(
    `  ${result.changes.length} flag changes (${result.changes.map((c) => c.arrival.state).join(' → ')}), ` +
      `${result.bulbs} bulbs; ${result.repeats} same-state events not counted; ${missed} bulb×change without a packet`,
  );
  row('event transit: bench arrival − emittedAt', transit);
  row(`each bulb's first packet − (bench arrival${target})`, vsArrival, within);
  row(`each bulb's first packet − (emittedAt${target})`, vsEmitted, within);
  row(`first bulb − (bench arrival${target})`, firstBulb, within);
  row(`last bulb − (bench arrival${target})`, lastBulb, within);
  if (result.truncated)
    console.log('  note: a receive log was full (1000 entries): early packets may be missing');
}

function printFootprint({ samples, ticksPerSecond }: Footprint): void {
  console.log(`\n3. Companion memory and CPU while following (${samples.length} samples, 1 s apart)`);
  if (samples.length < 2) return;
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
  const firstSample = samples[0]!;
  const lastSample = samples.at(-1)!;
  const cpu = (a: Sample, b: Sample) => (100 * (b.ticks - a.ticks)) / ticksPerSecond / ((b.at - a.at) / 1000);
  const perSecond = samples.slice(1).map((s, i) => cpu(samples[i]!, s));
  const line = (label: string, kb: (s: Sample) => number) =>
    console.log(
      `  ${label} start ${mb(kb(firstSample))}  max ${mb(Math.max(...samples.map(kb)))}  end ${mb(kb(lastSample))}`,
    );
  line('RSS                  ', (s) => s.rssKb);
  line('  private (RssAnon)  ', (s) => s.anonKb);
  line('  executable (RssFile)', (s) => s.fileKb);
  console.log(
    `  CPU mean ${cpu(firstSample, lastSample).toFixed(2)}% of one core over ${((lastSample.at - firstSample.at) / 1000).toFixed(0)} s` +
      `  (busiest second ${Math.max(...perSecond).toFixed(1)}%; ${ticksPerSecond} ticks/s)`,
  );
}

function printCommands(results: PhaseResult[]): void {
  const byFlag = new Map<string, { bulbChanges: number; types: Map<string, number> }>();
  for (const result of results)
    for (const change of result.changes) {
      const entry = byFlag.get(change.arrival.state) ?? { bulbChanges: 0, types: new Map<string, number>() };
      for (const counts of change.commands.values()) {
        entry.bulbChanges += 1;
        for (const [type, n] of counts) entry.types.set(type, (entry.types.get(type) ?? 0) + n);
      }
      byFlag.set(change.arrival.state, entry);
    }
  for (const [flag, { bulbChanges, types }] of byFlag) {
    const total = [...types.values()].reduce((a, b) => a + b, 0);
    const parts = [...types].map(([type, n]) => `${type} ${(n / bulbChanges).toFixed(1)}`).join(', ');
    console.log(
      `  ${flag.padEnd(11)} ${(total / bulbChanges).toFixed(1).padStart(5)} per bulb (${bulbChanges} bulb×changes: ${parts})`,
    );
  }
  const other = results.reduce((a, r) => a + r.otherPackets, 0);
  const bulbMinutes = results.reduce((a, r) => a + (r.bulbs * r.spanMs) / 60_000, 0);
  console.log(
    `  other packets (reads, probes): ${(other / Math.max(bulbMinutes, 1e-9)).toFixed(1)} per bulb per minute`,
  );
}

export function printReport({ launch, loadBefore, results, footprint, startups }: Report): void {
  const measured =
    launch.kind === 'executable'
      ? `the built executable (${path.relative(REPO_ROOT, EXECUTABLE)}, run from a copy)`
      : 'the sources under tsx (no built executable)';
  console.log(`Companion timing and footprint (DESIGN §7). Measured: ${measured}.`);
  console.log(`Load average (1, 5, 15 min): ${loadBefore} at the start, ${loadAverage()} at the end.`);
  console.log(
    `Race: ${FIXTURE} from minute ${START_MINUTES} at speed ${SPEED} for ${RACE_MS / 1000} s per run; 127.0.0.1, demo LAN simulator.`,
  );
  const [zero, delayed] = results;
  if (zero) {
    console.log(`\n1. Flag event → first UDP packet at a virtual bulb, delay 0 (target p99 ≤ 50 ms)`);
    printTiming(zero);
  }
  if (delayed) {
    console.log(
      `\n2. Delayed change vs its target, delay ${DELAYED_SECONDS} s (offset = first packet − (arrival + ${DELAYED_SECONDS * 1000} ms); target ±${WINDOW_MS} ms)`,
    );
    printTiming(delayed);
  }
  printFootprint(footprint);
  console.log(`\n4. Start-up (spawn → first 200 from /api/status) and LAN commands per flag`);
  const ms = (values: number[]) => values.map((v) => `${v.toFixed(0)} ms`).join(', ');
  console.log(`  ${launch.kind}: ${ms(startups.measured)}`);
  if (startups.sources.length) console.log(`  sources under tsx, for comparison: ${ms(startups.sources)}`);
  printCommands(results);
}
