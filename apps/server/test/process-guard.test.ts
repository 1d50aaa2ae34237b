import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(serverDir, '../..');
const guard = path.join(repoRoot, 'scripts/leftover-processes.mjs');

function runGuard(args: string[]) {
  const result = spawnSync(process.execPath, [guard, ...args], { encoding: 'utf8' });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a process the way a leaking test did: its parent (here a shell, there the tsx wrapper)
 * exits and leaves it orphaned, still running in the checkout.
 */
async function orphan(marker: string): Promise<number> {
  const shell = spawn(
    'sh',
    [
      '-c',
      `${JSON.stringify(process.execPath)} -e "setTimeout(() => {}, 30000) // ${marker}" >/dev/null 2>&1 & echo $!`,
    ],
    { cwd: serverDir, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => shell.on('exit', resolve));
  return Number(out.trim());
}

describe.runIf(process.platform === 'linux')('the leftover-process guard', () => {
  test('finds an orphaned process in the checkout, names it, and ends it with --kill', async () => {
    const since = Date.now();
    const marker = `flaglight-guard-${randomUUID()}`;
    const pid = await orphan(marker);
    try {
      expect(alive(pid)).toBe(true);
      const found = runGuard(['--since', String(since), '--match', marker]);
      expect(found.code).toBe(1);
      expect(found.out).toContain(`pid ${pid}`);
      expect(found.out).toContain(`cwd ${serverDir}`);

      const killed = runGuard(['--since', String(since), '--match', marker, '--kill']);
      expect(killed.code).toBe(1);
      expect(killed.out).toContain('ended (SIGKILL)');
      const end = Date.now() + paced(5_000);
      while (alive(pid) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(alive(pid)).toBe(false);
      expect(runGuard(['--since', String(since), '--match', marker])).toMatchObject({ code: 0 });
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  test("a process started before the run is not the run's", async () => {
    const marker = `flaglight-guard-${randomUUID()}`;
    const pid = await orphan(marker);
    try {
      const result = runGuard(['--since', String(Date.now() + 60_000), '--match', marker]);
      expect(result).toMatchObject({ code: 0 });
      expect(result.out).toContain('none');
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('says how to call it when --since is missing', () => {
    const result = runGuard([]);
    expect(result.code).toBe(2);
    expect(result.out).toContain('usage: leftover-processes.mjs --since');
  });
});
