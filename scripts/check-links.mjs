// A link in the docs must lead somewhere: every relative Markdown link in README.md, docs/ and the
// packages' READMEs points to a file or folder of this repository, and every `#anchor` to a heading
// of its page (GitHub's slugs). http(s) links are only checked to be well-formed: nothing is
// fetched, the checks run offline. Exit 1 with the list; also proves on built-in examples that it
// reads headings and links as GitHub does. Part of `npm run lint`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { walkFiles } from './walk-files.mjs';

const root = path.resolve(import.meta.dirname, '..');
/** Folders whose README.md files are checked besides README.md and every page under docs/. */
const README_DIRS = ['packages', 'apps', 'e2e', 'bench'];

/** The text with fenced code blocks, inline code and HTML comments blanked (line breaks kept). */
export function maskCode(markdown) {
  let fence = null;
  const lines = markdown.split('\n').map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1])
        fence = null;
      return '';
    }
    if (open) {
      fence = open[1];
      return '';
    }
    return line;
  });
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  return lines
    .join('\n')
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
}

/** GitHub's anchor for a heading's text: lower case, punctuation and symbols dropped, spaces to `-`. */
export function slugOf(headingText) {
  const codes = [];
  const plain = headingText
    .replace(/`([^`]*)`/g, (_, code) => `\uE000${codes.push(code) - 1}\uE000`)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*~]/g, '')
    .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}_]|$)/gu, '$1')
    .replace(/\uE000(\d+)\uE000/g, (_, index) => codes[Number(index)]);
  return plain
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings' slugs (repeats get -1, -2 …) and explicit HTML ids. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  const add = (slug) => {
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  const lines = maskCodeKeepingInline(markdown).split('\n');
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) add(slugOf(atx[1]));
    const previous = lines[index - 1];
    if (/^ {0,3}(?:=+|-+)[ \t]*$/.test(line) && previous?.trim() && !/^\s*(?:[|>#*+-]|\d+\.)/.test(previous))
      add(slugOf(previous.trim()));
    for (const [, id] of line.matchAll(/<[a-z]+\s[^>]*\b(?:id|name)="([^"]+)"/gi)) anchors.add(id);
  });
  return anchors;
}

/** Fenced blocks blanked, inline code kept: a heading's code is part of its anchor. */
function maskCodeKeepingInline(markdown) {
  const masked = maskCode(markdown).split('\n');
  return markdown
    .split('\n')
    .map((line, index) => (masked[index] === '' && line !== '' ? '' : line))
    .join('\n');
}

/** Link targets with their line: inline links and images, reference definitions, autolinks, bare URLs. */
export function linksOf(markdown) {
  const text = maskCode(markdown);
  const links = [];
  const lineAt = (offset) => text.slice(0, offset).split('\n').length;
  const patterns = [
    /\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
    /^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)/gm,
    /<(https?:\/\/[^>\s]+)>/g,
  ];
  const taken = new Set();
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const target = match[1].replace(/^<|>$/g, '');
      const at = match.index + match[0].indexOf(match[1]);
      taken.add(at);
      links.push({ target, line: lineAt(at) });
    }
  }
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s<>()[\]`"']+/g)) {
    if (taken.has(match.index) || taken.has(match.index - 1)) continue;
    links.push({ target: match[0].replace(/[.,;:!?*_]+$/, ''), line: lineAt(match.index) });
  }
  return links;
}

/** Why an external link is malformed, or null. */
export function checkExternal(target) {
  if (target.startsWith('mailto:'))
    return /^mailto:[^@\s]+@[^@\s]+$/.test(target) ? null : 'malformed mailto link';
  let url;
  try {
    url = new URL(target);
  } catch {
    return 'not a well-formed URL';
  }
  const host = url.hostname;
  const fine =
    host === 'localhost' ||
    /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]*[a-z][a-z0-9-]*$/i.test(host) ||
    /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) ||
    /^\[[0-9a-f:.]+\]$/i.test(host);
  return fine ? null : `"${host}" is not a host name`;
}

const anchorCache = new Map();
function anchorsOfFile(file) {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorCache.get(file);
}

/** Why a link from `file` is broken, or null. */
function checkLink(file, target) {
  if (/^https?:/i.test(target) || target.startsWith('mailto:')) return checkExternal(target);
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'a scheme other than http(s) or mailto';
  const hashAt = target.indexOf('#');
  const pathPart = (hashAt < 0 ? target : target.slice(0, hashAt)).replace(/\?.*$/, '');
  const anchor = hashAt < 0 ? null : target.slice(hashAt + 1);
  let resolved = file;
  if (pathPart !== '') {
    let decoded;
    try {
      decoded = decodeURIComponent(pathPart);
    } catch {
      return 'a malformed %-escape';
    }
    resolved = decoded.startsWith('/') ? path.join(root, decoded) : path.resolve(path.dirname(file), decoded);
    if (path.relative(root, resolved).startsWith('..')) return 'leads out of the repository';
    if (!existsSync(resolved)) return 'no such file or folder';
  }
  if (anchor === null || anchor === '') return null;
  if (!resolved.endsWith('.md') || statSync(resolved).isDirectory())
    return /^L\d+(?:-L\d+)?$/.test(anchor) ? null : `#${anchor} on a file that has no headings`;
  const anchors = anchorsOfFile(resolved);
  return anchors.has(decodeURIComponent(anchor))
    ? null
    : `no heading #${anchor} in ${path.relative(root, resolved)}`;
}

const CASES = [
  [() => slugOf('Behind a reverse proxy (`TRUST_PROXY`)'), 'behind-a-reverse-proxy-trust_proxy'],
  [() => slugOf("The desktop companion's variables"), 'the-desktop-companions-variables'],
  [() => slugOf('**Terms**, in _plain_ words → 1–20×'), 'terms-in-plain-words--120'],
  [() => [...anchorsOf('# A\n## A\n```\n# B\n```\nC\n---\n')].join(' '), 'a a-1 c'],
  [
    () =>
      linksOf('[a](b.md#c "t") `[x](y)` <https://e.org> see http://localhost:3000/x.')
        .map((l) => l.target)
        .join(' '),
    'b.md#c https://e.org http://localhost:3000/x',
  ],
  [() => String(checkExternal('https://exa mple.org')), 'not a well-formed URL'],
  [() => String(checkExternal('http://localhost:3000/sims/')), 'null'],
];

let failed = false;
for (const [run, expected] of CASES) {
  const actual = run();
  if (actual !== expected) {
    console.error(
      `check-links: its own example gave ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`,
    );
    failed = true;
  }
}

const files = [
  path.join(root, 'README.md'),
  ...walkFiles(path.join(root, 'docs'), (name) => name.endsWith('.md')),
  ...README_DIRS.flatMap((dir) => [...walkFiles(path.join(root, dir), (name) => name === 'README.md')]),
];
const broken = [];
let count = 0;
for (const file of files) {
  for (const { target, line } of linksOf(readFileSync(file, 'utf8'))) {
    count += 1;
    const problem = checkLink(file, target);
    if (problem) broken.push(`${path.relative(root, file)}:${line}: ${target}: ${problem}`);
  }
}
for (const line of broken) console.error(`check-links: ${line}`);
if (failed || broken.length > 0) process.exit(1);
console.log(`check-links: ${count} links in ${files.length} Markdown files, none broken`);
