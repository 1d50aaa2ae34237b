// The server and the companion as one JavaScript file each, for the tests that start them as
// processes of their own (decision 053). `node --import tsx src/main.ts` resolves and loads each of
// a start's ~400 modules through tsx's loader thread: 8–9 CPU s a start on a slow CI host, against
// 4.1–4.5 for the same code bundled by esbuild (the transform tsx itself uses). Packages from
// node_modules stay outside the bundle, loaded by Node as in production.
//
// Each module keeps its own `import.meta.url`: files it reads beside itself (the recorded races, the
// web app's build, the companion's builds) are found where they are. The bundle is made again when
// any file it was made from changed (size or time), so a test never runs yesterday's code.
//
//   import { entryCommand } from '<root>/scripts/entry-bundle.mjs';
//   const [command, args] = await entryCommand('server');   // spawn(command, [...args, ...yours])
//
//   node scripts/entry-bundle.mjs server   runs the bundled server in this process (the journeys'
//                                          demo server: one process, so ending it ends the server)
//   node scripts/entry-bundle.mjs --build  makes (or checks) both bundles, and exits
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'flaglight-entries');
const ENTRIES = {
  server: 'apps/server/src/main.ts',
  companion: 'apps/companion/src/main.ts',
};
/** What else decides a bundle's content: this file (its options) and the bundler's version. */
const RECIPE = [fileURLToPath(import.meta.url), path.join(ROOT, 'node_modules', 'esbuild', 'package.json')];

const stamp = (file) => {
  try {
    const stats = fs.statSync(file);
    return `${stats.size}:${stats.mtimeMs}`;
  } catch {
    return 'missing';
  }
};

/** True when the bundle exists and every file it was made from is as it was then. */
function isFresh(bundle, record) {
  if (!fs.existsSync(bundle) || !fs.existsSync(record)) return false;
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(record, 'utf8')).inputs;
  } catch {
    return false;
  }
  return Object.entries(inputs).every(([file, was]) => stamp(file) === was);
}

/** Leaves packages from node_modules to Node, and gives each of our modules its own URL. */
const ownModulesOnly = {
  name: 'own-modules-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@flaglight/') ? undefined : { path: args.path, external: true },
    );
    build.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      const loader = /\.tsx$/.test(args.path) ? 'tsx' : /\.m?ts$/.test(args.path) ? 'ts' : 'js';
      return { contents: text.replaceAll('import.meta.url', url), loader };
    });
  },
};

async function bundle(name, out, record) {
  const { build } = await import('esbuild');
  // A file of this process's own, renamed into place: two workers making it at once each finish
  // theirs, and a reader never sees half of one.
  const partial = `${out}.${process.pid}.partial`;
  const result = await build({
    entryPoints: [path.join(ROOT, ENTRIES[name])],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: partial,
    metafile: true,
    logLevel: 'error',
    plugins: [ownModulesOnly],
    absWorkingDir: ROOT,
  });
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs).map((f) => path.join(ROOT, f)), ...RECIPE])
    inputs[file] = stamp(file);
  fs.writeFileSync(`${record}.${process.pid}.partial`, JSON.stringify({ inputs }));
  fs.renameSync(partial, out);
  fs.renameSync(`${record}.${process.pid}.partial`, record);
}

const building = new Map();

/** The bundle of `name` ('server' or 'companion'), made first when missing or out of date. */
export async function ensureEntryBundle(name) {
  if (!ENTRIES[name])
    throw new Error(`entry-bundle: no entry "${name}" (${Object.keys(ENTRIES).join(', ')})`);
  const out = path.join(OUT_DIR, `${name}.mjs`);
  const record = path.join(OUT_DIR, `${name}.json`);
  if (isFresh(out, record)) return out;
  if (!building.has(name)) {
    fs.mkdirSync(OUT_DIR, { recursive: true });
    building.set(
      name,
      bundle(name, out, record).finally(() => building.delete(name)),
    );
  }
  await building.get(name);
  return out;
}

/** The command that starts `name` from its bundle: `[node, [bundle]]`. */
export async function entryCommand(name) {
  return [process.execPath, [await ensureEntryBundle(name)]];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [name, ...rest] = process.argv.slice(2);
  if (name === '--build') {
    // `npm test` makes both before its lanes start, rather than four demo servers making one each.
    for (const entry of rest.length > 0 ? rest : Object.keys(ENTRIES)) {
      const started = Date.now();
      const file = await ensureEntryBundle(entry);
      console.log(`entry-bundle: ${path.relative(ROOT, file)} ready in ${Date.now() - started} ms`);
    }
    process.exit(0);
  }
  const file = await ensureEntryBundle(name);
  // The bundled program sees itself as the script, with only its own arguments.
  process.argv = [process.argv[0], file, ...rest];
  await import(pathToFileURL(file).href);
}
