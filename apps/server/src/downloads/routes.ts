import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { api, DOWNLOADS_PER_MINUTE } from '@flaglight/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromContract } from '../http/contract-route.js';
import { badRequest, HttpError } from '../http/errors.js';
import { honoursIfRange, matchesNoneMatch, parseByteRange } from './http-range.js';

/**
 * Desktop builds (SPEC §2 landing: `/api/downloads/{product}-setup`; DESIGN §5.9). A product in
 * KNOWN_BUILDS is the file it names in DOWNLOADS_DIR. Otherwise the naming rule: the file
 * `<product>.<extension>`, e.g. `flaglight-setup.exe` for `/api/downloads/flaglight-setup` (the
 * companion's installer). With several extensions the first of INSTALLER_EXTENSIONS wins.
 */
export const KNOWN_BUILDS: Readonly<Record<string, string>> = {
  // The companion's Linux single executable: no extension, so no naming rule can find it.
  'flaglight-linux': 'flaglight-companion-linux-x64',
  // The same for a Raspberry Pi (64-bit OS) and other always-on arm64 Linux computers.
  'flaglight-linux-arm64': 'flaglight-companion-linux-arm64',
  // The companion's signed update manifest (decision 045): made and signed by the packaging step,
  // served as it is; the server holds no key and signs nothing.
  'companion-manifest': 'manifest.json',
  // The beta channel's, written by `npm run package -- --channel beta`.
  'companion-manifest-beta': 'manifest-beta.json',
};

export const INSTALLER_EXTENSIONS = ['exe', 'msi', 'msix', 'dmg', 'pkg', 'appimage', 'deb', 'zip'] as const;

/** Lower-case words joined by single hyphens: nothing that could name a path. */
const PRODUCT_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_PRODUCT_LENGTH = 64;

export const DOWNLOAD_MESSAGES = {
  invalidProduct: 'Invalid product name: use lower-case letters, digits and hyphens',
  notAvailable: 'The Flaglight desktop app is not available for download yet',
  rangeNotSatisfiable: 'The requested range is past the end of the file',
} as const;

const CONTENT_TYPES: Record<string, string> = {
  exe: 'application/vnd.microsoft.portable-executable',
  msi: 'application/x-msi',
  dmg: 'application/x-apple-diskimage',
  zip: 'application/zip',
  deb: 'application/vnd.debian.binary-package',
  json: 'application/json',
};

export interface DownloadRoutesOptions {
  downloadsDir: string | undefined;
}

interface Installer {
  file: string;
  name: string;
  size: number;
  extension: string;
}

/** The build of a product, or null. Only regular files directly inside the folder count. */
export async function findInstaller(
  downloadsDir: string | undefined,
  product: string,
): Promise<Installer | null> {
  if (!downloadsDir) return null;
  const known = Object.hasOwn(KNOWN_BUILDS, product) ? KNOWN_BUILDS[product] : undefined;
  if (known) {
    // lstat: a symlink is no regular file, so it cannot lead out of the folder.
    const stat = await fs.promises.lstat(path.join(downloadsDir, known)).catch(() => null);
    if (stat?.isFile())
      return {
        file: path.join(downloadsDir, known),
        name: known,
        size: stat.size,
        extension: path.extname(known).slice(1),
      };
  }
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(downloadsDir, { withFileTypes: true });
  } catch {
    return null;
  }
  const candidates = entries
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const dot = entry.name.lastIndexOf('.');
      return {
        name: entry.name,
        base: entry.name.slice(0, dot),
        extension: entry.name.slice(dot + 1).toLowerCase(),
      };
    })
    .filter((c) => c.base === product && (INSTALLER_EXTENSIONS as readonly string[]).includes(c.extension))
    .sort(
      (a, b) =>
        INSTALLER_EXTENSIONS.indexOf(a.extension as (typeof INSTALLER_EXTENSIONS)[number]) -
        INSTALLER_EXTENSIONS.indexOf(b.extension as (typeof INSTALLER_EXTENSIONS)[number]),
    );
  const best = candidates[0];
  if (!best) return null;
  const file = path.join(downloadsDir, best.name);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  return { file, name: best.name, size: stat.size, extension: best.extension };
}

function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('json') && !accept.includes('text/html');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A page that stands on its own (inline style only; the CSP allows inline styles, not scripts). */
export function renderNotAvailablePage(product: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Download not available yet · Flaglight</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0b0d12;color:#e8eaf0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
main{max-width:32rem;padding:2rem;text-align:center}
.flag{display:inline-grid;grid-template-columns:repeat(4,1rem);margin-bottom:1.5rem}
.flag span{height:1rem}.flag span:nth-child(odd){background:#fff}.flag span:nth-child(even){background:#111}
h1{font-size:1.5rem;margin:0 0 .75rem}
p{color:#aab0c0;margin:0 0 1.5rem}
a{display:inline-block;padding:.6rem 1.4rem;border-radius:.5rem;background:#f5c542;color:#111;font-weight:600;text-decoration:none}
a:focus-visible{outline:3px solid #fff;outline-offset:3px}
</style>
</head>
<body>
<main>
<div class="flag" aria-hidden="true"><span></span><span></span><span></span><span></span><span></span><span></span><span></span><span></span></div>
<h1>${DOWNLOAD_MESSAGES.notAvailable}</h1>
<p>The installer <code>${escapeHtml(product)}</code> is not published on this server yet. Flaglight works in your browser in the meantime: keep the tab open during a session.</p>
<a href="/">Back to Flaglight</a>
</main>
</body>
</html>
`;
}

export function notAvailable(request: FastifyRequest, reply: FastifyReply, product: string) {
  // Not kept by a CDN or proxy: the build may be published a minute later.
  void reply.header('cache-control', 'no-store');
  if (wantsJson(request))
    return reply.status(404).send({ error: DOWNLOAD_MESSAGES.notAvailable, code: 'not_found' });
  return reply.status(404).type('text/html; charset=utf-8').send(renderNotAvailablePage(product));
}

/**
 * The landing links to fixed URLs (`/api/downloads/flaglight-setup` names the newest build), so a
 * cache may keep a file only briefly: 5 minutes absorb a rush (a CDN or proxy answers it), and a
 * new release reaches everyone within 5 minutes; after that a cache revalidates with
 * `If-None-Match` and an unchanged file costs a 304 (decision 036).
 */
export const DOWNLOAD_CACHE_CONTROL = 'public, max-age=300';

// No symlink at the last step, even one swapped in after findInstaller looked (O_NOFOLLOW; Windows has none).
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0);

interface FileIdentity {
  key: string;
  tag: Promise<string>;
}

/**
 * A strong entity tag from the file's content (SHA-256): the same bytes have the same tag on every
 * instance and after a copy, which size and time do not promise. Hashed once per file version (its
 * device, inode, size and time), by path: a handful of files.
 */
export function createContentTags() {
  const known = new Map<string, FileIdentity>();
  async function hash(handle: FileHandle): Promise<string> {
    const digest = crypto.createHash('sha256');
    // Positional reads (`start`), and the handle stays open: the answer is read from the same file.
    for await (const chunk of handle.createReadStream({ start: 0, autoClose: false }))
      digest.update(chunk as Buffer);
    return `"${digest.digest('base64url')}"`;
  }
  return function contentTag(file: string, handle: FileHandle, stat: fs.Stats): Promise<string> {
    const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    const entry = known.get(file);
    if (entry?.key === key) return entry.tag;
    const tag = hash(handle);
    known.set(file, { key, tag });
    tag.catch(() => {
      if (known.get(file)?.tag === tag) known.delete(file);
    });
    return tag;
  };
}

export async function sendInstaller(
  request: FastifyRequest,
  reply: FastifyReply,
  installer: Installer,
  contentTag: ReturnType<typeof createContentTags>,
) {
  const handle = await fs.promises.open(installer.file, OPEN_FLAGS).catch(() => null);
  if (!handle) return null;
  let streaming = false;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return null;
    const etag = await contentTag(installer.file, handle, stat);
    const validators = { etag, 'cache-control': DOWNLOAD_CACHE_CONTROL, 'accept-ranges': 'bytes' };
    // If-None-Match before the range (RFC 9110 §13.2.2).
    if (matchesNoneMatch(request.headers['if-none-match'], etag))
      return reply.status(304).headers(validators).send();
    const range = honoursIfRange(request.headers['if-range'], etag)
      ? parseByteRange(request.headers.range, stat.size)
      : ({ kind: 'whole' } as const);
    if (range.kind === 'unsatisfiable') {
      void reply.header('content-range', `bytes */${stat.size}`);
      throw new HttpError(416, `${DOWNLOAD_MESSAGES.rangeNotSatisfiable} (the file has ${stat.size} bytes)`);
    }
    void reply.headers(validators);
    const { start, end } = range.kind === 'part' ? range : { start: 0, end: stat.size - 1 };
    void reply
      .status(range.kind === 'part' ? 206 : 200)
      .type(CONTENT_TYPES[installer.extension] ?? 'application/octet-stream')
      .header('content-length', String(end - start + 1))
      .header('content-disposition', `attachment; filename="${installer.name}"`);
    if (range.kind === 'part') void reply.header('content-range', `bytes ${start}-${end}/${stat.size}`);
    // HEAD and an empty file: the headers, without reading the file.
    if (request.method === 'HEAD' || end < start) return reply.send(Readable.from([]));
    streaming = true;
    // The stream closes the handle when it ends, fails or the client goes away.
    return reply.send(handle.createReadStream({ start, end }));
  } finally {
    if (!streaming) await handle.close().catch(() => undefined);
  }
}

export async function downloadRoutes(app: FastifyInstance, opts: DownloadRoutesOptions): Promise<void> {
  const contentTag = createContentTags();
  app.withTypeProvider<ZodTypeProvider>().route({
    // Per client address, counting every request: DOWNLOADS_PER_MINUTE says why that many.
    ...fromContract(api.meta.download, { rateLimitPerMinute: DOWNLOADS_PER_MINUTE }),
    handler: async (request, reply) => {
      const { product } = request.params;
      if (product.length > MAX_PRODUCT_LENGTH || !PRODUCT_PATTERN.test(product))
        throw badRequest(DOWNLOAD_MESSAGES.invalidProduct);
      const installer = await findInstaller(opts.downloadsDir, product);
      const sent = installer ? await sendInstaller(request, reply, installer, contentTag) : null;
      return sent ?? notAvailable(request, reply, product);
    },
  });
}
