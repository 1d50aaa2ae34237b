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
  signal?: AbortSignal;
}

export type CheckResult =
  | { kind: 'none'; message: string }
  | { kind: 'current'; manifest: Manifest; message: string }
  | { kind: 'refused'; manifest: Manifest | null; message: string }
  | { kind: 'available'; manifest: Manifest; file: ManifestFile; url: string; message: string };

export function manifestUrl(server: string): string {
  return `${server.replace(/\/+$/, '')}/api/downloads/companion-manifest`;
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

/** Fetches and verifies the manifest, then says whether it offers this computer a newer build. */
export async function checkForUpdate(input: CheckInput): Promise<CheckResult> {
  const address = manifestUrl(input.server);
  if (!isAllowedUpdateUrl(address))
    return { kind: 'refused', manifest: null, message: UPDATE_MESSAGES.notHttps };
  let response: http.IncomingMessage;
  try {
    response = await httpGet(address, {
      headers: { accept: 'application/json' },
      signal: input.signal ?? AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
  } catch {
    return { kind: 'none', message: 'Could not reach the server to check for updates; trying again later.' };
  }
  const status = response.statusCode ?? 0;
  if (status !== 200) {
    response.destroy();
    return status === 404
      ? { kind: 'none', message: 'The server offers no update information.' }
      : { kind: 'none', message: `The update check failed (HTTP ${status}); trying again later.` };
  }
  const text = await readText(response, MAX_MANIFEST_BYTES).catch(() => null);
  let envelope: unknown = null;
  try {
    envelope = text === null ? null : JSON.parse(text);
  } catch {
    // Judged below as malformed.
  }
  const verified = verifyManifest(envelope, input.trustedKeys);
  if (!verified.ok) {
    const message = verified.reason.startsWith('The update is not signed')
      ? UPDATE_MESSAGES.notSigned
      : `Update refused: ${verified.reason[0]!.toLowerCase()}${verified.reason.slice(1)}`;
    return { kind: 'refused', manifest: null, message };
  }
  return judgeManifest(verified.manifest, address, input);
}

/** The checks on a manifest whose signature verified. */
export function judgeManifest(manifest: Manifest, address: string, input: CheckInput): CheckResult {
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
  if (order < 0) {
    return refuse(`Update refused: version ${manifest.version} is older than this one (${input.running}).`);
  }
  if (input.failed.includes(manifest.version)) {
    return refuse(
      `Version ${manifest.version} failed before and was rolled back: it is not installed again by itself.`,
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
