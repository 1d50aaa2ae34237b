// Comments say why the code is so, never which tracker entry asked for it: a reader of the code has
// no issue tracker. Fails (exit 1) on a comment that names an issue, or an item of one, in a source
// file git tracks; also proves on built-in examples that it catches what it must and passes the
// rest. Part of `npm run lint`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
/** "issue 15", "Issue #15", "issues 14 and 16", "item 6 of": tracker references. */
const REFERENCE = /\b(?:issues?\s+#?\d+|item\s+\d+\s+of\b|issue-\d+)/i;

/** The comment part of a line (`//…`, or a line inside or opening a block comment), or null. */
function commentOf(line) {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return trimmed;
  const at = line.search(/(?<![:'"`\\])\/\/(?!\/)/);
  return at >= 0 ? line.slice(at) : null;
}

export function findReferences(text) {
  const found = [];
  text.split('\n').forEach((line, index) => {
    const comment = commentOf(line);
    if (comment !== null && REFERENCE.test(comment)) found.push({ line: index + 1, text: line.trim() });
  });
  return found;
}

const CASES = [
  ['// One connection per instance (issue 15).', 1],
  [' * the companion (issue 14 item 6, decision 020).', 1],
  ['/** Issue 16: one suite over every driver. */', 1],
  ['const x = 1; // see Issue #22', 1],
  ['// Decision 021 and DESIGN §7 are fine, and so is a reissue.', 0],
  ["expect(issued.statusCode).toBe(200); const url = 'https://example.com/issue 15';", 0],
  ['const sessionKey = 9158; // the session key of 2023 Singapore', 0],
];

let failed = false;
for (const [text, expected] of CASES) {
  if (findReferences(text).length !== expected) {
    console.error(`lint-comments: its own example ${JSON.stringify(text)} gave the wrong answer`);
    failed = true;
  }
}

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  // This file spells the patterns out in its own comments and examples.
  .filter(
    (file) => SOURCE.test(file) && !file.includes('node_modules/') && file !== 'scripts/lint-comments.mjs',
  );
let count = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    continue; // Deleted in the working tree.
  }
  for (const hit of findReferences(text)) {
    console.error(`${file}:${hit.line}: a comment names a tracker entry; say why instead: ${hit.text}`);
    count += 1;
  }
}
if (count > 0 || failed) process.exit(1);
console.log(`lint-comments: ${files.length} source files, no comment names an issue`);
