// The companion versions this server keeps (decision 045): `DOWNLOADS_DIR/releases/<version>/`, each
// holding the signed `manifest.json` of that version and its files, as `npm run package` lays them
// out. The index lists the manifests as they are: the server holds no key and signs nothing; the
// companion verifies each entry on its own and fetches a file by the address its manifest signs.
import fs from 'node:fs';
import path from 'node:path';
import { api, DOWNLOADS_PER_MINUTE } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromContract } from '../http/contract-route.js';
import { badRequest } from '../http/errors.js';
import {
  DOWNLOAD_CACHE_CONTROL,
  findInstaller,
  notAvailable,
  sendInstaller,
  createContentTags,
} from './routes.js';

/** A release folder's name: the version, digits only (packaging refuses any other). */
const VERSION_FOLDER = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** As many as the companion reads; a manifest is a few hundred bytes. */
export const MAX_LISTED_RELEASES = 20;
const MAX_MANIFEST_BYTES = 64 * 1024;

const versionKey = (name: string) => VERSION_FOLDER.exec(name)!.slice(1, 4).map(Number);

function newestFirst(a: string, b: string): number {
  const [ka, kb] = [versionKey(a), versionKey(b)];
  for (const i of [0, 1, 2]) if (ka[i] !== kb[i]) return kb[i]! - ka[i]!;
  return 0;
}

/** The signed manifests under `releases/`, newest first; a folder without a readable one is left out. */
export async function listReleaseManifests(downloadsDir: string | undefined): Promise<unknown[]> {
  if (!downloadsDir) return [];
  const root = path.join(downloadsDir, 'releases');
  const entries = await fs.promises.readdir(root, { withFileTypes: true }).catch(() => []);
  const versions = entries
    .filter((entry) => entry.isDirectory() && VERSION_FOLDER.test(entry.name))
    .map((entry) => entry.name)
    .sort(newestFirst)
    .slice(0, MAX_LISTED_RELEASES);
  const manifests: unknown[] = [];
  for (const version of versions) {
    const file = path.join(root, version, 'manifest.json');
    // lstat: a symlink is no regular file, so it cannot lead out of the folder.
    const stat = await fs.promises.lstat(file).catch(() => null);
    if (!stat?.isFile() || stat.size > MAX_MANIFEST_BYTES) continue;
    try {
      manifests.push(JSON.parse(await fs.promises.readFile(file, 'utf8')));
    } catch {
      // Not JSON: left out (the companion would refuse it anyway).
    }
  }
  return manifests;
}

export async function companionReleaseRoutes(
  app: FastifyInstance,
  opts: { downloadsDir: string | undefined },
): Promise<void> {
  const contentTag = createContentTags();
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.route({
    ...fromContract(api.meta.companionReleases, { rateLimitPerMinute: DOWNLOADS_PER_MINUTE }),
    handler: async (_request, reply) => {
      void reply.header('cache-control', DOWNLOAD_CACHE_CONTROL);
      return { manifests: await listReleaseManifests(opts.downloadsDir) };
    },
  });
  typed.route({
    ...fromContract(api.meta.companionReleaseFile, { rateLimitPerMinute: DOWNLOADS_PER_MINUTE }),
    handler: async (request, reply) => {
      const { version, name } = request.params;
      if (!VERSION_FOLDER.test(version) || name.length > 64 || !NAME_PATTERN.test(name))
        throw badRequest('Invalid version or file name');
      const folder = opts.downloadsDir ? path.join(opts.downloadsDir, 'releases', version) : undefined;
      const installer = await findInstaller(folder, name);
      const sent = installer ? await sendInstaller(request, reply, installer, contentTag) : null;
      return sent ?? notAvailable(request, reply, `${version}/${name}`);
    },
  });
}
