import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreeTcpPort } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';

// The Linux single executable, as `npm run package -w @flaglight/companion` (or `package:linux`)
// leaves it. The Windows one is smoke-tested under wine by scripts/smoke-wine.sh.
const COMPANION_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXE = path.join(COMPANION_DIR, 'dist', 'flaglight-companion-linux-x64');
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(COMPANION_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
// A closed local port: the executable must never reach a real server from a test.
const OFFLINE_SERVER = 'http://127.0.0.1:9';
const built = fs.existsSync(EXE);
if (!built) {
  console.warn(
    `package.test.ts: SKIPPED, ${path.relative(process.cwd(), EXE)} is not built (npm run package:linux -w @flaglight/companion)`,
  );
}

describe.skipIf(!built)('the Linux single executable (dist/flaglight-companion-linux-x64)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-companion-exe-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const runExe = (args: string[]) =>
    spawnSync(EXE, args, {
      encoding: 'utf8',
      timeout: paced(15_000),
      env: { ...process.env, NODE_OPTIONS: '' },
    });

  test('--version prints the package version', () => {
    const result = runExe(['--version']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(VERSION);
  });

  test('status --json prints one object and exits 0 with no server reachable', () => {
    const result = runExe(['status', '--json', '--server', OFFLINE_SERVER, '--data-dir', dataDir]);
    expect(result.status, result.stderr).toBe(0);
    const status = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ version: VERSION, platform: 'linux', linked: false });
    expect(typeof status.dataDir).toBe('string');
    expect(typeof status.server).toBe('string');
    expect(typeof status.running).toBe('boolean');
  });

  test('run serves /api/status on the port it is given', async () => {
    const port = await findFreeTcpPort();
    const child = spawn(
      EXE,
      ['run', '--server', OFFLINE_SERVER, '--port', String(port), '--no-browser', '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      let status: Record<string, unknown> | undefined;
      for (let attempt = 0; attempt < 50 && !status && child.exitCode === null; attempt++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/status`, {
            signal: AbortSignal.timeout(1000),
          });
          if (res.ok) status = (await res.json()) as Record<string, unknown>;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      expect(status, `no /api/status; the executable said: ${output.slice(0, 500)}`).toBeDefined();
      expect(status).toMatchObject({ version: VERSION, platform: 'linux', linked: false });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
