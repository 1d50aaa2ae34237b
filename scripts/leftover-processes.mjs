#!/usr/bin/env node
// Finds processes a test run left behind: started after a given moment, and tied to this checkout
// (their working folder is inside it, their command line names it, or their DATA_DIR is a
// flaglight temp folder), that are neither this process, its ancestors nor its descendants.
// A demo server a test forgot to end keeps its port, its memory and, with HOST=0.0.0.0, serves
// the simulators to the network; this guard fails the run instead of letting them pile up.
//
//   node scripts/leftover-processes.mjs --since <epoch ms> [--run ID] [--match TEXT] [--kill]
//
// --run ID narrows it to what one test run started: processes whose environment holds
// FLAGLIGHT_TEST_RUN=ID (tests that spawn with an environment of their own pass it on), so a
// developer's own processes and other runs' servers are left alone.
// Without it (CI, where nothing else runs) every process tied to the checkout counts.
// --match keeps only processes whose command line holds TEXT (the guard's own test uses it, so
// that other suites running beside it are not counted).
//
// Exit 0 when none is found, 1 when some are (they are listed, and ended with --kill).
// Reads /proc, so it checks Linux only; elsewhere it says so and finds none.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The environment variable a test runner sets so the processes it starts can be told apart. */
export const RUN_VARIABLE = 'FLAGLIGHT_TEST_RUN';

const CLOCK_TICKS = 100; // USER_HZ on every Linux this runs on (sysconf(_SC_CLK_TCK)).

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function bootTimeMs() {
  const line = (read('/proc/stat') ?? '').split('\n').find((l) => l.startsWith('btime '));
  return line ? Number(line.split(' ')[1]) * 1000 : 0;
}

/** pid, parent pid and start time (epoch ms) of one process, or null when it is gone. */
function stat(pid, boot) {
  const text = read(`/proc/${pid}/stat`);
  if (text === null) return null;
  // The command name sits in parentheses and may hold spaces: count fields after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    state: fields[0],
    ppid: Number(fields[1]),
    startedAt: boot + (Number(fields[19]) / CLOCK_TICKS) * 1000,
  };
}

function listProcesses() {
  const boot = bootTimeMs();
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => stat(Number(name), boot))
    .filter((entry) => entry !== null);
}

function describe(pid) {
  const cmdline = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean).join(' ');
  let cwd = '';
  try {
    cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    // Gone, or not ours to read.
  }
  const environ = (read(`/proc/${pid}/environ`) ?? '').split('\0');
  const value = (name) => environ.find((v) => v.startsWith(`${name}=`))?.slice(name.length + 1) ?? '';
  return { cmdline, cwd, dataDir: value('DATA_DIR'), run: value(RUN_VARIABLE) };
}

function inside(child, parent) {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The processes started at or after `since` (epoch ms) that belong to the checkout at `root`,
 * leaving out this process, its ancestors and its descendants.
 */
export function findLeftovers({ since, root = REPO_ROOT, self = process.pid, match = '', run = '' } = {}) {
  if (process.platform !== 'linux') return [];
  const all = listProcesses();
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const ancestors = new Set();
  for (let p = byPid.get(self); p && !ancestors.has(p.pid); p = byPid.get(p.ppid)) ancestors.add(p.pid);
  const descendants = new Set([self]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!descendants.has(p.pid) && descendants.has(p.ppid)) {
        descendants.add(p.pid);
        grew = true;
      }
    }
  }
  const realRoot = fs.realpathSync(root);
  const tmp = fs.realpathSync(os.tmpdir());
  // The boot time is whole seconds (and ticks round down): a start can read up to 1 s early.
  return (
    all
      // A zombie has ended already; only its parent's reaping is left.
      .filter((p) => p.state !== 'Z' && p.startedAt >= since - 1000 - 1000 / CLOCK_TICKS)
      .filter((p) => !ancestors.has(p.pid) && !descendants.has(p.pid))
      .map((p) => ({ ...p, ...describe(p.pid) }))
      .filter((p) => match === '' || p.cmdline.includes(match))
      .filter((p) => {
        const testData =
          p.dataDir !== '' && inside(p.dataDir, tmp) && path.basename(p.dataDir).startsWith('flaglight-');
        // Only what carries this run's id: another run's test servers (e2e, a second vitest) are not ours.
        if (run !== '') return p.run === run;
        return (p.cwd !== '' && inside(p.cwd, realRoot)) || p.cmdline.includes(realRoot) || testData;
      })
  );
}

/**
 * `findLeftovers`, asked again for up to `graceMs` while some are found: a process a test killed a
 * moment ago may still be on its way out.
 */
export async function waitForLeftovers(options = {}, graceMs = 3_000) {
  const end = Date.now() + graceMs;
  let leftovers = findLeftovers(options);
  while (leftovers.length > 0 && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    leftovers = findLeftovers(options);
  }
  return leftovers;
}

/** Ends each leftover with SIGKILL (its process group too, when it leads one). */
export function killLeftovers(leftovers) {
  for (const p of leftovers) {
    try {
      process.kill(-p.pid, 'SIGKILL');
    } catch {
      // Not a group leader.
    }
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

export function formatLeftovers(leftovers) {
  return leftovers
    .map(
      (p) =>
        `  pid ${p.pid} (parent ${p.ppid}), cwd ${p.cwd || '?'}${p.dataDir ? `, DATA_DIR ${p.dataDir}` : ''}: ${p.cmdline.slice(0, 200)}`,
    )
    .join('\n');
}

async function main(argv) {
  const sinceAt = argv.indexOf('--since');
  const since = sinceAt >= 0 ? Number(argv[sinceAt + 1]) : Number.NaN;
  const option = (name) => {
    const at = argv.indexOf(name);
    return at >= 0 ? (argv[at + 1] ?? '') : '';
  };
  const match = option('--match');
  const run = option('--run');
  if (!Number.isFinite(since)) {
    console.error('usage: leftover-processes.mjs --since <epoch ms> [--match TEXT] [--kill]');
    return 2;
  }
  if (process.platform !== 'linux') {
    console.log('leftover processes: not checked (reads /proc, Linux only)');
    return 0;
  }
  const leftovers = await waitForLeftovers({ since, match, run });
  if (leftovers.length === 0) {
    console.log('leftover processes: none');
    return 0;
  }
  console.error(`leftover processes: ${leftovers.length} started by the test run are still running:`);
  console.error(formatLeftovers(leftovers));
  if (argv.includes('--kill')) {
    killLeftovers(leftovers);
    console.error('leftover processes: ended (SIGKILL)');
  }
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
