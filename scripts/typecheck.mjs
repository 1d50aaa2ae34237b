// Type-checks every workspace as its own `typecheck` script does, in fewer compiler runs.
//
// Each workspace's check resolves the packages it imports from their sources, so ten separate runs
// check `@flaglight/core`, `contract`, `lights` and `sims` again and again. Here the configs a
// workspace's `typecheck` names (`tsc --noEmit -p <config>`) are grouped by compiler options: the
// configs of one group, with the same options and no `exclude` of their own, become one program
// over all their files (each file checked once, under exactly the options it had). The programs
// then run side by side, as many as the machine has cores (at most `--jobs`).
//
// `node scripts/typecheck.mjs [--jobs N] [--list]`: --list prints the programs and exits.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'flaglight-typecheck');

const args = process.argv.slice(2);
const jobsArg = args.indexOf('--jobs');
const jobs = Math.max(1, jobsArg >= 0 ? Number(args[jobsArg + 1]) : Math.min(4, os.availableParallelism()));

/** Reads a tsconfig written as JSON with comments and trailing commas (what tsc accepts). */
function readConfig(file) {
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(text);
}

/** The configs each workspace's `typecheck` script checks, in order. */
function workspaceConfigs() {
  const { workspaces } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const configs = [];
  for (const pattern of workspaces) {
    const dirs = pattern.endsWith('/*')
      ? fs
          .readdirSync(path.join(ROOT, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(pattern.slice(0, -2), entry.name))
      : [pattern];
    for (const dir of dirs) {
      const manifest = path.join(ROOT, dir, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const script = JSON.parse(fs.readFileSync(manifest, 'utf8')).scripts?.typecheck;
      if (!script) continue;
      const named = [...script.matchAll(/\btsc\b[^&|;]*?-p\s+(\S+)/g)].map((m) => m[1]);
      if (named.length === 0 || script.split('&&').length !== named.length)
        throw new Error(`${dir}: typecheck must be "tsc --noEmit -p <config>" steps only, not: ${script}`);
      for (const config of named) configs.push(path.join(ROOT, dir, config));
    }
  }
  return configs;
}

/** One program per group of configs that share compiler options and have no `exclude`. */
function programs(configs) {
  const groups = new Map();
  const alone = [];
  for (const file of configs) {
    const config = readConfig(file);
    const ownKeys = Object.keys(config).filter(
      (key) => !['extends', 'compilerOptions', 'include'].includes(key),
    );
    const base = config.extends ? path.resolve(path.dirname(file), config.extends) : null;
    if (ownKeys.length > 0 || !config.include) {
      alone.push({ name: path.relative(ROOT, file), config: file });
      continue;
    }
    const key = JSON.stringify([base, config.compilerOptions ?? {}]);
    const group = groups.get(key) ?? {
      base,
      compilerOptions: config.compilerOptions ?? {},
      files: [],
      include: [],
    };
    group.files.push(file);
    for (const include of config.include) group.include.push(path.resolve(path.dirname(file), include));
    groups.set(key, group);
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const merged = [...groups.values()].map((group, index) => {
    if (group.files.length === 1)
      return { name: path.relative(ROOT, group.files[0]), config: group.files[0] };
    const config = path.join(OUT_DIR, `tsconfig.${index}.json`);
    const body = { compilerOptions: group.compilerOptions, include: group.include };
    if (group.base) body.extends = group.base;
    fs.writeFileSync(config, `${JSON.stringify(body, null, 2)}\n`);
    const names = group.files.map((file) => path.relative(ROOT, file)).join(' + ');
    return { name: names, config };
  });
  return [...merged, ...alone];
}

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
