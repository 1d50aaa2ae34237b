/** The companion's footprint and the machine's load, read from /proc. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface Sample {
  at: number;
  rssKb: number;
  /** Private memory (heap, stacks): what the companion itself uses. */
  anonKb: number;
  /**
   * Pages of the executable file mapped in: shared with the page cache and dropped under memory
   * pressure; their count moves by several MB from run to run with what the cache holds (the
   * kernel maps cached neighbours of each page touched).
   */
  fileKb: number;
  ticks: number;
}

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** VmRSS and CPU time (utime + stime, in clock ticks) of a process, or null once it is gone. */
function sampleProc(pid: number): Sample | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    const [rssKb, anonKb, fileKb] = [field('VmRSS'), field('RssAnon'), field('RssFile')];
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { at: performance.now(), rssKb, anonKb, fileKb, ticks };
  } catch {
    return null;
  }
}

export interface Footprint {
  samples: Sample[];
  ticksPerSecond: number;
}

/** Samples `pid` now and every second until `stop()`; `take()` adds one more sample. */
export function sampleEverySecond(pid: number): Footprint & { take(): void; stop(): void } {
  const ticksPerSecond = clockTicks();
  const samples: Sample[] = [];
  const take = () => {
    const sample = sampleProc(pid);
    if (sample) samples.push(sample);
  };
  const timer = setInterval(take, 1_000);
  take();
  return { samples, ticksPerSecond, take, stop: () => clearInterval(timer) };
}

export const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
};
