// Type-checks every workspace as its own `typecheck` script does, in fewer compiler runs: one
// program per group of configs with the same compiler options (scripts/typecheck-programs.mjs). The
// programs run side by side, as many as the machine has cores (at most `--jobs`).
//
// `node scripts/typecheck.mjs [--jobs N] [--list]`: --list prints the programs and exits.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { programs, ROOT, workspaceConfigs } from './typecheck-programs.mjs';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const args = process.argv.slice(2);
const jobsArg = args.indexOf('--jobs');
const jobs = Math.max(1, jobsArg >= 0 ? Number(args[jobsArg + 1]) : Math.min(4, os.availableParallelism()));

function run(program) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '--noEmit', '-p', program.config], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) =>
      resolve({ ...program, code, output, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const list = programs(workspaceConfigs());
if (args.includes('--list')) {
  for (const program of list) console.log(program.name);
  process.exit(0);
}
const started = Date.now();
const queue = [...list];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    while (queue.length > 0) {
      const result = await run(queue.shift());
      results.push(result);
      const mark = result.code === 0 ? 'ok' : 'FAILED';
      console.log(`typecheck ${mark} ${result.seconds.toFixed(1)} s  ${result.name}`);
      if (result.output.trim()) console.log(result.output.trimEnd());
    }
  }),
);
const failed = results.filter((result) => result.code !== 0);
console.log(
  `typecheck: ${list.length} programs for ${workspaceConfigs().length} configs in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failed.length} failed`,
);
process.exit(failed.length > 0 ? 1 : 0);
