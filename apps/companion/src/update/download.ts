// Downloading a build the manifest names, beside the running executable: never more bytes than
// signed (and never over 200 MB), hashed while it arrives, checked for size, SHA-256 and the
// platform's executable header, flushed to the disk; anything wrong removes the file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import { httpGet } from './http-get.js';
import { MAX_UPDATE_BYTES, type ManifestFile, type UpdatePlatform } from './manifest.js';

const DOWNLOAD_TIMEOUT_MS = 15 * 60_000;

export type DownloadResult = { ok: true; file: string } | { ok: false; message: string };

/** ELF for x86-64 / aarch64, PE (MZ) for Windows: a file for another computer is refused even when signed. */
export function matchesPlatform(head: Buffer, platform: UpdatePlatform): boolean {
  if (platform === 'win-x64') return head.length >= 2 && head.toString('latin1', 0, 2) === 'MZ';
  if (head.length < 20 || !head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return false;
  const machine = head.readUInt16LE(18);
  return platform === 'linux-x64' ? machine === 0x3e : machine === 0xb7;
}

async function fail(
  fd: fs.promises.FileHandle | null,
  target: string,
  message: string,
): Promise<DownloadResult> {
  await fd?.close().catch(() => undefined);
  await fs.promises.rm(target, { force: true });
  return { ok: false, message };
}

/** Downloads `url` into `target` and checks it against the signed entry `expected`. */
export async function downloadUpdate(input: {
  url: string;
  expected: ManifestFile;
  platform: UpdatePlatform;
  target: string;
  version: string;
  signal?: AbortSignal;
}): Promise<DownloadResult> {
  const { expected, target, version } = input;
  const limit = Math.min(expected.size, MAX_UPDATE_BYTES);
  if (expected.size > MAX_UPDATE_BYTES)
    return fail(
      null,
      target,
      `Update refused: the file is larger than ${MAX_UPDATE_BYTES / 1024 / 1024} MB.`,
    );
  let response: http.IncomingMessage;
  try {
    response = await httpGet(input.url, { signal: input.signal ?? AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch {
    return fail(null, target, `Could not download version ${version}; trying again later.`);
  }
  if (response.statusCode !== 200) {
    response.destroy();
    const status = response.statusCode ?? 0;
    return fail(null, target, `Could not download version ${version} (HTTP ${status}); trying again later.`);
  }
  const announced = Number(response.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(announced) && announced !== expected.size) {
    response.destroy();
    return fail(null, target, mismatch(version, 'size'));
  }
  await fs.promises.rm(target, { force: true });
  const fd = await fs.promises.open(target, 'wx', 0o755);
  const hash = crypto.createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let received = 0;
  try {
    for await (const value of response as AsyncIterable<Buffer>) {
      received += value.length;
      if (received > limit) {
        response.destroy();
        return fail(fd, target, mismatch(version, 'size'));
      }
      if (headBytes < 64) {
        const part = Buffer.from(value.subarray(0, 64 - headBytes));
        head.push(part);
        headBytes += part.length;
      }
      hash.update(value);
      await fd.write(value);
    }
  } catch {
    return fail(
      fd,
      target,
      `The download of version ${version} was cut off (${received} of ${expected.size} bytes); trying again later.`,
    );
  }
  if (received !== expected.size) return fail(fd, target, mismatch(version, 'size'));
  if (hash.digest('hex') !== expected.sha256) return fail(fd, target, mismatch(version, 'SHA-256'));
  if (!matchesPlatform(Buffer.concat(head), input.platform))
    return fail(
      fd,
      target,
      `Update refused: the file of version ${version} is not a ${input.platform} program.`,
    );
  // On the disk before it is renamed into place: a power cut must not leave a half executable.
  await fd.sync();
  await fd.close();
  return { ok: true, file: target };
}

function mismatch(version: string, what: 'size' | 'SHA-256'): string {
  return `Update refused: the downloaded file of version ${version} does not match its signed ${what}.`;
}
