// Asking the server for the newest build: the signed manifest fetched, verified against the keys
// built in, and judged (product, channel, expiry, version, platform, address) before anything of it
// is used. Every refusal is one plain sentence; the running version goes on either way.
import type http from 'node:http';
import { httpGet, readText } from './http-get.js';
import {
  compareVersions,
  MANIFEST_PRODUCT,
  MAX_UPDATE_BYTES,
  verifyManifest,
  type Manifest,
  type ManifestFile,
  type UpdatePlatform,
} from './manifest.js';
import { isLoopbackUrl } from './trusted-keys.js';

/** A manifest is a few hundred bytes; anything past this is not one. */
const MAX_MANIFEST_BYTES = 64 * 1024;
const CHECK_TIMEOUT_MS = 20_000;

export const UPDATE_MESSAGES = {
  notSigned: 'Update refused: it is not signed by a Flaglight release key.',
  wrongProduct: 'Update refused: the update information is for another program.',
  tooLarge: `Update refused: the file is larger than ${MAX_UPDATE_BYTES / 1024 / 1024} MB.`,
  notHttps: 'Update refused: the download address is not https.',
} as const;

export interface CheckInput {
  /** The Flaglight server this companion follows; the manifest is its `/api/downloads/companion-manifest`. */
  server: string;
  running: string;
  platform: UpdatePlatform | null;
  trustedKeys: readonly string[];
  channel: 'stable' | 'beta';
  now: Date;
  /** Versions that failed and were rolled back: never installed again by themselves. */
  failed: readonly string[];
  /** Versions the fan stepped back from by hand: not installed again by themselves either. */
  declined?: readonly string[];
  signal?: AbortSignal;
}

export type CheckResult =
  | { kind: 'none'; message: string }
  | { kind: 'current'; manifest: Manifest; message: string }
  | { kind: 'refused'; manifest: Manifest | null; message: string }
  | { kind: 'available'; manifest: Manifest; file: ManifestFile; url: string; message: string };

/** The channel's manifest: `companion-manifest` (stable) or `companion-manifest-beta`. */
export function manifestUrl(server: string, channel: 'stable' | 'beta' = 'stable'): string {
  return `${server.replace(/\/+$/, '')}/api/downloads/companion-manifest${channel === 'beta' ? '-beta' : ''}`;
}

/** https, or http to this computer (demo, tests): a download in the clear could be swapped on the way. */
export function isAllowedUpdateUrl(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(address));
}

/**
 * Fetches and verifies the chosen channel's manifest, then says whether it offers this computer a
 * newer build. On beta both manifests are read: a stable release newer than the last beta is offered
 * too. On stable only the stable one, and a beta manifest found there is never installed.
 */
export async function checkForUpdate(input: CheckInput): Promise<CheckResult> {
  const stable = await checkManifestAt(manifestUrl(input.server, 'stable'), input);
  if (input.channel !== 'beta') return stable;
  const beta = await checkManifestAt(manifestUrl(input.server, 'beta'), input);
  if (stable.kind === 'available' && beta.kind === 'available')
    return compareVersions(stable.manifest.version, beta.manifest.version) >= 0 ? stable : beta;
  if (stable.kind === 'available') return stable;
  // No beta manifest on the server: what the stable one said.
  return beta.kind === 'none' && stable.kind !== 'none' ? stable : beta;
}

/** The envelope at `address` (JSON), or the result that says why there is none. */
export async function fetchSigned(
  address: string,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<{ ok: true; envelope: unknown } | { ok: false; result: CheckResult }> {
  if (!isAllowedUpdateUrl(address))
    return { ok: false, result: { kind: 'refused', manifest: null, message: UPDATE_MESSAGES.notHttps } };
  let response: http.IncomingMessage;
  try {
    response = await httpGet(address, {
      headers: { accept: 'application/json' },
      signal: signal ?? AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
  } catch {
    const message = 'Could not reach the server to check for updates; trying again later.';
    return { ok: false, result: { kind: 'none', message } };
  }
  const status = response.statusCode ?? 0;
  if (status !== 200) {
    response.destroy();
    const message =
      status === 404
        ? 'The server offers no update information.'
        : `The update check failed (HTTP ${status}); trying again later.`;
    return { ok: false, result: { kind: 'none', message } };
  }
  const text = await readText(response, limit).catch(() => null);
  try {
    return { ok: true, envelope: text === null ? null : JSON.parse(text) };
  } catch {
    // Judged by the caller as malformed.
    return { ok: true, envelope: null };
  }
}

/** The refusal of an envelope whose signature did not verify. */
export function notVerified(reason: string): CheckResult {
  const message = reason.startsWith('The update is not signed')
    ? UPDATE_MESSAGES.notSigned
    : `Update refused: ${reason[0]!.toLowerCase()}${reason.slice(1)}`;
  return { kind: 'refused', manifest: null, message };
}

async function checkManifestAt(address: string, input: CheckInput): Promise<CheckResult> {
  const fetched = await fetchSigned(address, MAX_MANIFEST_BYTES, input.signal);
  if (!fetched.ok) return fetched.result;
  const verified = verifyManifest(fetched.envelope, input.trustedKeys);
  if (!verified.ok) return notVerified(verified.reason);
  return judgeManifest(verified.manifest, address, input);
}

/**
 * The checks on a manifest whose signature verified. `olderAllowed` names the one older version the
 * fan picked by hand and confirmed on the status page; every other check still applies to it.
 */
export function judgeManifest(
  manifest: Manifest,
  address: string,
  input: CheckInput,
  olderAllowed?: string,
): CheckResult {
  const refuse = (message: string): CheckResult => ({ kind: 'refused', manifest, message });
  if (manifest.product !== MANIFEST_PRODUCT) return refuse(UPDATE_MESSAGES.wrongProduct);
  if (manifest.channel === 'beta' && input.channel === 'stable') {
    return {
      kind: 'current',
      manifest,
      message: `Up to date (${input.running}); ${manifest.version} is a beta.`,
    };
  }
  const expires = Date.parse(manifest.expires);
  if (!(expires > input.now.getTime())) {
    return refuse(
      `Update refused: the update information expired on ${manifest.expires.slice(0, 10)}; the server may be stuck on an old release.`,
    );
  }
  const order = compareVersions(manifest.version, input.running);
  if (order === 0) return { kind: 'current', manifest, message: `Up to date (${input.running}).` };
  if (order < 0 && olderAllowed !== manifest.version) {
    return refuse(`Update refused: version ${manifest.version} is older than this one (${input.running}).`);
  }
  if (input.failed.includes(manifest.version)) {
    return refuse(
      `Version ${manifest.version} failed before and was rolled back: it is not installed again by itself.`,
    );
  }
  if (input.declined?.includes(manifest.version)) {
    return refuse(
      `Version ${manifest.version} was left by hand for an older one: it is not installed again by itself.`,
    );
  }
  const file = input.platform ? manifest.files[input.platform] : undefined;
  if (!input.platform || !file) {
    return refuse(
      `Update refused: version ${manifest.version} has no build for this computer (${input.platform ?? `${process.platform}-${process.arch}`}).`,
    );
  }
  if (file.size > MAX_UPDATE_BYTES) return refuse(UPDATE_MESSAGES.tooLarge);
  let url: string;
  try {
    url = new URL(file.url, address).href;
  } catch {
    return refuse(UPDATE_MESSAGES.notHttps);
  }
  if (!isAllowedUpdateUrl(url)) return refuse(UPDATE_MESSAGES.notHttps);
  return { kind: 'available', manifest, file, url, message: `Version ${manifest.version} is available.` };
}
