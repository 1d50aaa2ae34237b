// No import circles: two files (or more) that import each other, type-only imports included, make a
// file that cannot be read, moved or tested on its own. Reads the relative imports of every source
// file git tracks (tests, fixtures and generated files too), finds the strongly connected groups
// and fails (exit 1) naming each circle. Part of `npm run lint`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
// `import … from './x.js'`, `export … from './x.js'`, `import('./x.js')`, `import './x.js'`.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The tracked file a relative specifier names (`.js` in source maps to `.ts`/`.tsx`), or null. */
function resolve(from, specifier, files) {
  const base = path.join(path.dirname(from), specifier);
  const stem = base.replace(/\.(?:[cm]?js|jsx)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.js`,
    `${stem}.mjs`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ];
  return candidates.find((candidate) => files.has(candidate)) ?? null;
}

export function findCircles(graph) {
  // Tarjan's strongly connected components; a component of two or more files is a circle.
  let index = 0;
  const stack = [];
  const on = new Set();
  const indices = new Map();
  const low = new Map();
  const circles = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    on.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (on.has(next)) {
        low.set(node, Math.min(low.get(node), indices.get(next)));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        on.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return circles;
}

// Its own examples: a circle must be found, a chain must not.
const example = findCircles(
  new Map([
    ['a', ['b']],
    ['b', ['a']],
    ['c', ['d']],
    ['d', []],
  ]),
);
if (example.length !== 1 || example[0].join() !== 'a,b') {
  console.error('lint-cycles: its own example gave the wrong answer');
  process.exit(1);
}

const files = new Set(
  execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(
      (file) => SOURCE.test(file) && !file.includes('node_modules/') && existsSync(path.join(root, file)),
    ),
);
const graph = new Map();
for (const file of files) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const targets = new Set();
  for (const match of text.matchAll(IMPORT)) {
    const target = resolve(file, match[1], files);
    if (target && target !== file) targets.add(target);
  }
  graph.set(file, [...targets]);
}
const circles = findCircles(graph);
for (const circle of circles) console.error(`lint-cycles: import circle: ${circle.join(' ↔ ')}`);
if (circles.length > 0) process.exit(1);
console.log(`lint-cycles: ${files.size} source files, no import circle`);
