// The TypeScript programs that check every workspace (scripts/typecheck.mjs, scripts/typed-checks.mjs).
//
// Each workspace's check resolves the packages it imports from their sources, so ten separate runs
// check `@flaglight/core`, `contract`, `lights` and `sims` again and again. Here the configs a
// workspace's `typecheck` names (`tsc --noEmit -p <config>`) are grouped by compiler options: the
// configs of one group, with the same options and no `exclude` of their own, become one program
// over all their files (each file checked once, under exactly the options it had).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'flaglight-typecheck');

/** Reads a tsconfig written as JSON with comments and trailing commas (what tsc accepts). */
function readConfig(file) {
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(text);
}

/** The configs each workspace's `typecheck` script checks, in order. */
export function workspaceConfigs() {
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

/**
 * One program per group of configs that share compiler options and have no `exclude`: its name, the
 * config to compile (written to node_modules/.cache for a group) and the configs it stands for.
 */
export function programs(configs) {
  const groups = new Map();
  const alone = [];
  for (const file of configs) {
    const config = readConfig(file);
    const ownKeys = Object.keys(config).filter(
      (key) => !['extends', 'compilerOptions', 'include'].includes(key),
    );
    const base = config.extends ? path.resolve(path.dirname(file), config.extends) : null;
    if (ownKeys.length > 0 || !config.include) {
      alone.push({ name: path.relative(ROOT, file), config: file, sources: [file] });
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
      return { name: path.relative(ROOT, group.files[0]), config: group.files[0], sources: group.files };
    const config = path.join(OUT_DIR, `tsconfig.${index}.json`);
    const body = { compilerOptions: group.compilerOptions, include: group.include };
    if (group.base) body.extends = group.base;
    fs.writeFileSync(config, `${JSON.stringify(body, null, 2)}\n`);
    const names = group.files.map((file) => path.relative(ROOT, file)).join(' + ');
    return { name: names, config, sources: group.files };
  });
  return [...merged, ...alone];
}
