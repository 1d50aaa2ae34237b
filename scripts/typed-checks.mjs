// `npm run typecheck` and `eslint .` in one process, on the same TypeScript programs (`npm run
// check:typed`, the `typed` lane of `npm test`, decision 047). Apart, the typecheck builds its programs and the typed lint builds
// programs of its own (typescript-eslint's project service, one per workspace) over the same files:
// every file parsed, bound and checked twice. Here each program is built and checked once, then
// handed to ESLint (`parserOptions.programs`), each file linted with its own workspace's program
// and nothing else changed in the lint config. The files no workspace includes (the root
// vitest.config.ts, the project service's default project) get a program of their own.
//
// `node scripts/typed-checks.mjs`: exit 1 when the typecheck or the lint finds an error.
//
// `npm run check:typed` starts it with `--max-semi-space-size=128`: V8's young generation at 128 MB
// a half rather than 16, so the programs' many short-lived objects (the checker's types, ESLint's
// trees) are swept far less often. Measured alone, interleaved, on the 2-core CI machine: 78-85 CPU s
// and 54-59 s against 93-103 CPU s and 66-74 s (about a sixth less of each); the peak memory stays
// about 3.3 GB. The same flag gave Prettier and Vitest's workers nothing measurable.
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { programs, ROOT, workspaceConfigs } from './typecheck-programs.mjs';

/** Files the project service lints in its default project (eslint.config.js allowDefaultProject). */
const DEFAULT_PROJECT_FILES = ['vitest.config.ts'];

/**
 * A compiler host sharing parsed files between the programs: the lib and @types files, and the
 * packages every workspace imports, are parsed once (as tsserver's document registry does).
 */
function createSharedHost(cache) {
  return (options) => {
    const host = ts.createCompilerHost(options, true);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const settings =
        typeof languageVersion === 'object'
          ? `${languageVersion.languageVersion}:${languageVersion.impliedNodeFormat}:${languageVersion.jsDocParsingMode}`
          : String(languageVersion);
      const key = `${fileName}\u0000${settings}`;
      let file = cache.get(key);
      if (!file) {
        file = read(fileName, languageVersion, onError, shouldCreate);
        if (file) cache.set(key, file);
      }
      return file;
    };
    return host;
  };
}

function createProgram(configFile, hostFor) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  return ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: hostFor(parsed.options),
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
}

const FORMAT_HOST = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};

/** Checks a program as `tsc --noEmit -p` would: its diagnostics, printed as tsc prints them. */
function typecheck(program, name) {
  const started = Date.now();
  const diagnostics = ts.getPreEmitDiagnostics(program.program);
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  console.log(
    `typecheck ${errors === 0 ? 'ok' : 'FAILED'} ${((Date.now() - started) / 1000).toFixed(1)} s  ${name}`,
  );
  if (diagnostics.length > 0) {
    const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    console.log(format(diagnostics, FORMAT_HOST).trimEnd());
  }
  return errors;
}

/** ESLint's config blocks giving each file the program of its own workspace's tsconfig. */
function programBlocks(linted) {
  const blocks = [];
  for (const { program, roots } of linted) {
    const files = roots
      .filter((file) => /\.(ts|tsx|mts|cts)$/.test(file) && !file.endsWith('.d.ts'))
      .map((file) => path.relative(ROOT, file));
    if (files.length === 0) continue;
    blocks.push({
      files,
      languageOptions: { parserOptions: { projectService: false, programs: [program] } },
    });
  }
  return blocks;
}

const started = Date.now();
const hostFor = createSharedHost(new Map());
const list = programs(workspaceConfigs());
let typeErrors = 0;
const linted = [];
for (const entry of list) {
  const program = createProgram(entry.config, hostFor);
  typeErrors += typecheck({ program }, entry.name);
  // The lint reads each workspace's tsconfig.json; the narrower *.lib.json checks are the typecheck's.
  if (entry.sources.every((source) => path.basename(source) === 'tsconfig.json'))
    linted.push({ program, roots: program.getRootFileNames() });
}
const defaults = ts.createProgram({
  rootNames: DEFAULT_PROJECT_FILES.map((file) => path.join(ROOT, file)),
  options: { ...ts.getDefaultCompilerOptions(), noEmit: true },
  host: hostFor({}),
});
linted.push({ program: defaults, roots: defaults.getRootFileNames() });
console.log(
  `typecheck: ${list.length} programs for ${workspaceConfigs().length} configs in ${((Date.now() - started) / 1000).toFixed(1)} s, ${typeErrors} errors`,
);

const lintStarted = Date.now();
const eslint = new ESLint({ cwd: ROOT, overrideConfig: programBlocks(linted) });
const results = await eslint.lintFiles(['.']);
const output = (await eslint.loadFormatter('stylish')).format(results);
if (output) console.log(output.trimEnd());
const lintErrors = results.reduce((sum, result) => sum + result.errorCount + result.fatalErrorCount, 0);
console.log(
  `eslint: ${results.length} files in ${((Date.now() - lintStarted) / 1000).toFixed(1)} s, ${lintErrors} errors`,
);
process.exit(typeErrors > 0 || lintErrors > 0 ? 1 : 0);
