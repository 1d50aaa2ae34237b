// The versions a fan may pick by hand on the status page: the server's index of the signed
// manifests it holds (`/api/downloads/companion-releases`). The index itself is not signed (the
// server signs nothing): each entry is a whole signed manifest, verified and judged on its own, so
// the server can leave a version out but cannot change or add one.
import { fetchSigned, judgeManifest, notVerified, type CheckInput } from './check.js';
import { compareVersions, verifyManifest, type Manifest, type ManifestFile } from './manifest.js';

/** Twenty manifests of a few hundred bytes each, with room to spare. */
const MAX_INDEX_BYTES = 256 * 1024;
/** More entries than this are not read: the list on the status page stays short. */
export const MAX_INDEX_ENTRIES = 20;

export interface ReleaseOffer {
  version: string;
  channel: 'stable' | 'beta';
  released: string;
  notes: string;
  /** Older than the running version: installed only once the fan confirms. */
  older: boolean;
}

export interface CheckedRelease {
  offer: ReleaseOffer;
  manifest: Manifest;
  file: ManifestFile;
  url: string;
}

export interface ReleaseList {
  ok: boolean;
  releases: CheckedRelease[];
  /** One plain sentence per entry refused (or why there is no list at all). */
  refused: string[];
}

export function releasesUrl(server: string): string {
  return `${server.replace(/\/+$/, '')}/api/downloads/companion-releases`;
}

/**
 * Every entry of the server's index that verifies against a built-in key and passes every check
 * (product, channel, expiry, platform, size, address) but the version's order: newest first, the
 * running version left out. A beta is listed on the beta channel only.
 */
export async function listReleases(input: CheckInput): Promise<ReleaseList> {
  const address = releasesUrl(input.server);
  const fetched = await fetchSigned(address, MAX_INDEX_BYTES, input.signal);
  if (!fetched.ok) return { ok: false, releases: [], refused: [fetched.result.message] };
  const entries = (fetched.envelope as { manifests?: unknown } | null)?.manifests;
  if (!Array.isArray(entries))
    return { ok: false, releases: [], refused: ['The list of versions from the server is malformed.'] };
  const releases: CheckedRelease[] = [];
  const refused: string[] = [];
  for (const entry of entries.slice(0, MAX_INDEX_ENTRIES)) {
    const verified = verifyManifest(entry, input.trustedKeys);
    if (!verified.ok) {
      refused.push(`A listed version was refused: ${lower(notVerified(verified.reason).message)}`);
      continue;
    }
    const { manifest } = verified;
    if (compareVersions(manifest.version, input.running) === 0) continue;
    // By hand: a version rolled back or stepped back from before may be chosen again.
    const judged = judgeManifest(manifest, address, { ...input, failed: [], declined: [] }, manifest.version);
    if (judged.kind === 'available') {
      const older = compareVersions(manifest.version, input.running) < 0;
      const offer = {
        version: manifest.version,
        channel: manifest.channel,
        released: manifest.released,
        notes: manifest.notes,
        older,
      };
      if (!releases.some((r) => r.offer.version === manifest.version))
        releases.push({ offer, manifest, file: judged.file, url: judged.url });
    } else if (judged.kind === 'refused') {
      refused.push(`Version ${manifest.version} was refused: ${lower(judged.message)}`);
    }
  }
  releases.sort((a, b) => compareVersions(b.offer.version, a.offer.version));
  return { ok: true, releases, refused };
}

/** "Update refused: x." → "x." (the sentence is already inside another). */
function lower(message: string): string {
  const text = message.replace(/^Update refused: /, '');
  return `${text[0]!.toLowerCase()}${text.slice(1)}`;
}
