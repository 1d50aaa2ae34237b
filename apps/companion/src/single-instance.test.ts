import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreeTcpPort, type RunningLanSim, startLanSimServer } from '@flaglight/sims';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { entryCommand } from '../../../scripts/entry-bundle.mjs';
import { paced, pollFor } from '../../../scripts/test-pace.mjs';

/**
 * Starting the companion a second time (the Start-menu shortcut, a second terminal): the copy that
 * finds the first one on its port says so and exits, the first one goes on. Both are the real CLI,
 * in processes of their own, following a demo server's LAN simulator (its Home Assistant instance
 * is what kept the second copy alive before).
 */
const COMPANION_DIR = fileURLToPath(new URL('..', import.meta.url));

interface Run {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function runCompanion(server: string, port: number, dataDir: string): Promise<Run> {
  const [node, bundle] = await entryCommand('companion');
  const child = spawn(
    node,
    [
      ...bundle,
      'run',
      '--demo',
      '--server',
      server,
      '--no-browser',
      '--data-dir',
      dataDir,
      '--port',
      String(port),
    ],
    { cwd: COMPANION_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function end(run: Run | null): Promise<void> {
  if (!run || run.child.exitCode !== null || run.child.signalCode !== null) return;
  run.child.kill('SIGTERM');
  const kill = setTimeout(() => run.child.kill('SIGKILL'), 10_000);
  await run.exited;
  clearTimeout(kill);
}

const until = <T>(check: () => Promise<T | null>, what: string, ms = 60_000) =>
  pollFor(() => check().catch(() => null), what, ms, 200);

/** Whether the process has exited within `ms` (a generous wait, not a timing check). */
async function exitedWithin(run: Run, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    run.exited,
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}

let demo: RunningLanSim;
const dirs: string[] = [];
let runs: Run[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-single-instance-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  demo = await startLanSimServer();
});
afterEach(async () => {
  await Promise.all(runs.map(end));
  runs = [];
});
afterAll(async () => {
  await demo?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a second start of the companion', () => {
  test(
    'finds the first one on its port, says so and exits 0; the first one goes on',
    { timeout: paced(120_000) },
    async () => {
      const port = await findFreeTcpPort();
      const first = await runCompanion(demo.url, port, dataDir());
      runs.push(first);
      // The first one drives the simulator's lights (Home Assistant's among them).
      await until(async () => {
        const status = (await (await fetch(`http://127.0.0.1:${port}/api/status`)).json()) as {
          lights: { provider: string }[];
        };
        return status.lights.some((light) => light.provider === 'home_assistant') ? status : null;
      }, 'the first companion to drive the LAN lights');

      const second = await runCompanion(demo.url, port, dataDir());
      runs.push(second);
      const outcome = await exitedWithin(second, 30_000);
      expect(outcome, `the second companion is still running:\n${second.output()}`).toEqual({
        code: 0,
        signal: null,
      });
      expect(second.output()).toContain(`Flaglight Companion is already running: http://127.0.0.1:${port}/`);
      // It started nothing of its own: no lights, no status page.
      expect(second.output()).not.toContain('Home Assistant:');
      expect(second.output()).not.toContain('status page');

      expect(first.child.exitCode).toBeNull();
      const status = (await (await fetch(`http://127.0.0.1:${port}/api/status`)).json()) as {
        version: string;
      };
      expect(status.version).toMatch(/^\d+\.\d+\.\d+/);
    },
  );

  test('on a port another program holds, it says so and exits 1', { timeout: paced(120_000) }, async () => {
    // A program that takes connections and never answers them.
    const sockets = new Set<net.Socket>();
    const other = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as net.AddressInfo).port;
    try {
      const second = await runCompanion(demo.url, port, dataDir());
      runs.push(second);
      const outcome = await exitedWithin(second, 30_000);
      expect(outcome, `the companion is still running:\n${second.output()}`).toEqual({
        code: 1,
        signal: null,
      });
      expect(second.output()).toContain(
        `Port ${port} is used by another program. Start the companion with --port <another port>.`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
