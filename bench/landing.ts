/**
 * Landing page weight: the JavaScript the landing page loads, in bytes on the wire for
 * a browser that accepts brotli, one that accepts gzip, and one that accepts neither (the server
 * before compression). Starts the real app in demo mode on 127.0.0.1 over the built web app, then
 * - "before first render": index.html's module script and preloads and their static imports, what
 *   the browser must fetch before the landing can draw;
 * - "in a browser": every script Debian's Chromium actually requests for `/` until the network is
 *   idle (lazy chunks included), and what following "Sign In" adds, when /usr/bin/chromium exists.
 * Prints figures, asserts nothing. Run: npm run build && npm run bench:landing -w @flaglight/bench
 * [-- --dist DIR] (another build, e.g. an older one, to compare).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.js';
import { parseConfig } from '../apps/server/src/config.js';
import { createContext } from '../apps/server/src/context.js';
import { DEFAULT_WEB_DIST } from '../apps/server/src/http/web-app.js';

/** The target for the landing's JavaScript on the wire. */
const BUDGET_BYTES = 150 * 1024;
const CHROMIUM = '/usr/bin/chromium';
const ENCODINGS = ['br', 'gzip', 'identity'] as const;
type Encoding = (typeof ENCODINGS)[number];

interface Fetched {
  wire: number;
  encoding: string;
}

/** One GET with a given Accept-Encoding; the body is counted as it arrives, not decoded. */
function fetchRaw(url: string, acceptEncoding: Encoding): Promise<Fetched & { body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
          const body = Buffer.concat(chunks);
          resolve({ wire: body.length, encoding: res.headers['content-encoding'] ?? 'identity', body });
        });
      })
      .on('error', reject);
  });
}

/** Module script and modulepreload links of index.html, then every static import they make. */
async function firstRenderScripts(origin: string): Promise<string[]> {
  const html = (await fetchRaw(`${origin}/`, 'identity')).body.toString('utf8');
  const queue = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g),
  ].map((m) => new URL(m[1]!, origin).href);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = (await fetchRaw(url, 'identity')).body.toString('utf8');
    // Static imports only (`import … from "./x.js"`, `import "./x.js"`); `import("./x.js")` is lazy.
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      queue.push(new URL(m[1]!, url).href);
    }
  }
  return [...seen];
}

/**
 * Every script Chromium requests for the landing, until the network has been idle 500 ms; then
 * the ones the sign-in screen adds when the visitor follows "Sign In".
 */
async function browserScripts(origin: string): Promise<{ landing: string[]; signIn: string[] } | null> {
  if (!fs.existsSync(CHROMIUM)) return null;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    const landing = [...new Set(scripts)];
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Sign In' }).waitFor();
    await page.waitForLoadState('networkidle');
    return { landing, signIn: [...new Set(scripts)].filter((url) => !landing.includes(url)) };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function report(title: string, urls: string[]): Promise<Record<Encoding, number>> {
  const totals: Record<Encoding, number> = { br: 0, gzip: 0, identity: 0 };
  const rows: string[][] = [];
  for (const url of urls) {
    const sizes = await Promise.all(ENCODINGS.map((encoding) => fetchRaw(url, encoding)));
    ENCODINGS.forEach((encoding, i) => (totals[encoding] += sizes[i]!.wire));
    rows.push([path.basename(new URL(url).pathname), ...sizes.map((s) => `${kb(s.wire)} (${s.encoding})`)]);
  }
  rows.push(['total', ...ENCODINGS.map((encoding) => kb(totals[encoding]))]);
  console.log(`\n${title}: ${urls.length} scripts`);
  const widths = [0, 1, 2, 3].map((c) =>
    Math.max(...[['file', ...ENCODINGS], ...rows].map((r) => r[c]!.length)),
  );
  for (const row of [['file', 'br', 'gzip', 'none'], ...rows]) {
    console.log(
      `  ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]! + 2))).join('')}`,
    );
  }
  return totals;
}

function parseDist(argv: string[]): string {
  const i = argv.indexOf('--dist');
  return i >= 0 && argv[i + 1] ? path.resolve(argv[i + 1]!) : DEFAULT_WEB_DIST;
}

const distDir = parseDist(process.argv.slice(2));
if (!fs.existsSync(path.join(distDir, 'index.html'))) {
  console.error(`No web build in ${distDir}: run \`npm run build\` first.`);
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-bench-landing-'));
const context = await createContext(parseConfig({ FLAGLIGHT_MODE: 'demo', DATA_DIR: dataDir, PORT: '0' }), {
  logger: pino({ level: 'silent' }),
});
const app = await buildApp({ context, webDistDir: distDir });
try {
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(
    `landing page JavaScript on the wire, web build ${path.relative(process.cwd(), distDir) || distDir}`,
  );
  const first = await report(
    'before first render (index.html and its static imports)',
    await firstRenderScripts(origin),
  );
  const inBrowser = await browserScripts(origin);
  const loaded = inBrowser
    ? await report('in a browser (Chromium, until the network is idle)', inBrowser.landing)
    : null;
  if (inBrowser) await report('then added by the sign-in screen', inBrowser.signIn);
  else console.log(`\n(${CHROMIUM} not found: the browser figures are skipped)`);
  const worst = loaded ?? first;
  console.log(
    `\nbudget ${kb(BUDGET_BYTES)} on the wire: brotli ${kb(worst.br)}, gzip ${kb(worst.gzip)} -> ${
      Math.max(worst.br, worst.gzip) <= BUDGET_BYTES ? 'within budget' : 'OVER BUDGET'
    }`,
  );
} finally {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
