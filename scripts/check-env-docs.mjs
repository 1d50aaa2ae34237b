// The environment variables a reader can look up must be the ones the app has: every variable in
// .env.example (commented or not) is in a `variable` table of docs/configuration.md, and every
// variable those tables name is in .env.example or read by the code. Exit 1 with the names that
// disagree; also proves on built-in examples that its parsers read what they must. Part of
// `npm run lint`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { walkFiles } from './walk-files.mjs';

const root = path.resolve(import.meta.dirname, '..');
const DOCS_PAGE = 'docs/configuration.md';
const ENV_EXAMPLE = '.env.example';
const SERVER_CONFIG = 'apps/server/src/config.ts';
/** Where code that reads the environment lives (the server, the companion and its build, tests, tools). */
const CODE_DIRS = ['apps', 'packages', 'e2e', 'bench', 'scripts', '.ci'];
const CODE_FILE = /\.(?:[cm]?[jt]sx?)$|^run$|\.sh$/;
const NAME = /^[A-Z][A-Z0-9_]*$/;

/** `NAME=value` lines, and the same behind a `#` (a variable shown but left unset). */
export function parseEnvExample(text) {
  const names = new Set();
  for (const line of text.split('\n')) {
    const match = /^\s*(?:#\s*)?([A-Z][A-Z0-9_]*)=/.exec(line);
    if (match) names.add(match[1]);
  }
  return names;
}

/** The table cells of a Markdown row, without the outer pipes (`\|` stays inside its cell). */
function cellsOf(line) {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/**
 * The names in the first column of every table whose first header is `variable`, outside code
 * fences: a cell may name several (`` `PORT`, `HOST` ``).
 */
export function parseDocumentedNames(markdown) {
  const names = new Set();
  let inFence = false;
  /** Outside a table, in its header row, or in the body of a `variable` table or another. */
  let table = 'none';
  for (const line of markdown.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || !line.trim().startsWith('|')) {
      table = 'none';
      continue;
    }
    const [first = ''] = cellsOf(line);
    if (table === 'none') table = first.toLowerCase() === 'variable' ? 'header' : 'other';
    else if (table === 'header') table = 'variables';
    else if (table === 'variables')
      for (const [, name] of first.matchAll(/`([^`]+)`/g)) if (NAME.test(name)) names.add(name);
  }
  return names;
}

/** Names the code reads: `process.env.NAME`, `env.NAME`, `env['NAME']`, `$NAME` in shell scripts. */
export function parseCodeReads(text, { shell = false } = {}) {
  const names = new Set();
  const patterns = [/\benv\.([A-Z][A-Z0-9_]*)\b/g, /\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g];
  if (shell) patterns.push(/\$\{?([A-Z][A-Z0-9_]*)\b/g);
  for (const pattern of patterns) for (const [, name] of text.matchAll(pattern)) names.add(name);
  return names;
}

/** The keys of the server's env schema (`const envSchema = z.object({ NAME: … })`). */
export function parseSchemaKeys(text) {
  const names = new Set();
  const start = text.indexOf('const envSchema = z.object({');
  if (start < 0) return names;
  const end = text.indexOf('\n});', start);
  for (const [, name] of text.slice(start, end < 0 ? undefined : end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm))
    names.add(name);
  return names;
}

const CASES = [
  () =>
    sameSet(parseEnvExample('# comment naming PORT\nPORT=3000   # x\n# HOST=\n  # (DATA_DIR/x)'), [
      'PORT',
      'HOST',
    ]),
  () =>
    sameSet(
      parseDocumentedNames(
        '| variable | meaning |\n| --- | --- |\n| `PORT`, `HOST` | a `NOT_ME` |\n\n| option | x |\n| --- | --- |\n| `OTHER` | x |',
      ),
      ['PORT', 'HOST'],
    ),
  () => sameSet(parseCodeReads("process.env.A_B ?? env.C; env['D']; x.envE; $F"), ['A_B', 'C', 'D']),
  () =>
    sameSet(parseSchemaKeys('const envSchema = z.object({\n  PORT: port(3000),\n    NESTED: 1,\n});'), [
      'PORT',
    ]),
];

function sameSet(actual, expected) {
  return actual.size === expected.length && expected.every((name) => actual.has(name));
}

let failed = false;
CASES.forEach((check, index) => {
  if (!check()) {
    console.error(`check-env-docs: its own example ${index + 1} gave the wrong answer`);
    failed = true;
  }
});

const read = (file) => readFileSync(path.join(root, file), 'utf8');
const example = parseEnvExample(read(ENV_EXAMPLE));
const documented = parseDocumentedNames(read(DOCS_PAGE));
const inCode = parseSchemaKeys(read(SERVER_CONFIG));
for (const dir of CODE_DIRS) {
  for (const file of walkFiles(path.join(root, dir), (name) => CODE_FILE.test(name))) {
    // This file spells the patterns out in its own examples.
    if (file === import.meta.filename) continue;
    const shell = /(?:^|\/)run$|\.sh$/.test(file);
    for (const name of parseCodeReads(readFileSync(file, 'utf8'), { shell })) inCode.add(name);
  }
}

const undocumented = [...example].filter((name) => !documented.has(name)).sort();
const unknown = [...documented].filter((name) => !example.has(name) && !inCode.has(name)).sort();
if (undocumented.length > 0)
  console.error(`check-env-docs: in ${ENV_EXAMPLE} but not in ${DOCS_PAGE}: ${undocumented.join(', ')}`);
if (unknown.length > 0)
  console.error(
    `check-env-docs: in ${DOCS_PAGE} but neither in ${ENV_EXAMPLE} nor read by the code: ${unknown.join(', ')}`,
  );
if (failed || undocumented.length > 0 || unknown.length > 0) process.exit(1);
console.log(
  `check-env-docs: ${example.size} variables in ${ENV_EXAMPLE}, ${documented.size} documented in ${DOCS_PAGE}, all agree`,
);
