import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { entryCommand } from '../../../scripts/entry-bundle.mjs';
import { paced } from '../../../scripts/test-pace.mjs';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let serverCommand: [string, string[]];
beforeAll(async () => {
  serverCommand = await entryCommand('server');
}, paced(60_000));

function startServer(env: Record<string, string>) {
  // Node itself on the bundled server (scripts/entry-bundle.mjs), so the process the test holds
  // (and kills) is the server.
  const [node, args] = serverCommand;
  const child = spawn(node, args, {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      // The test run's id, so its leftover-process guard knows the server as its own.
      FLAGLIGHT_TEST_RUN: process.env.FLAGLIGHT_TEST_RUN ?? '',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Ends the server if it still runs, and waits until it has. */
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return { child, exited, stop, output: () => ({ stdout, stderr }) };
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + paced(timeoutMs);
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the server process', { timeout: paced(60_000) }, () => {
  test('a bad configuration value stops start-up with one clear line', async () => {
    const server = startServer({ PORT: 'not-a-port' });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr.trim()).toBe('Invalid configuration: PORT must be a port number');
  });

  test('it serves, then shuts down gracefully on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-main-'));
    const server = startServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FLAGLIGHT_MODE: 'demo' });
    try {
      await waitFor(
        () => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.test(server.output().stdout),
        45_000,
      );
      const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output().stdout)?.[1];
      const res = await fetch(`${url}/api/health`);
      expect(await res.json()).toEqual({ ok: true });
      expect(fs.existsSync(path.join(dataDir, 'flaglight.db'))).toBe(true);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output().stdout).toContain('shutting down');
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });

  test('demo mode listens on 127.0.0.1 only when HOST is unset', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-main-'));
    const server = startServer({ PORT: '0', DATA_DIR: dataDir, FLAGLIGHT_MODE: 'demo' });
    try {
      await waitFor(() => server.output().stdout.includes('Flaglight is running'), 45_000);
      const listening = server
        .output()
        .stdout.split('\n')
        .filter((line) => line.includes('Server listening at'));
      // Bound to every interface, Fastify would name each of the machine's addresses.
      expect(listening).toHaveLength(1);
      expect(listening[0]).toMatch(/Server listening at http:\/\/127\.0\.0\.1:\d+/);
      expect(server.output().stdout).not.toContain('reachable from the network');
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });

  test('demo mode with HOST set warns that the simulators are reachable from the network', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-main-'));
    // The all-interfaces bind is the point of this test: the server is ended the moment it has
    // said its warning, before anything is checked, so it serves the network as briefly as it can.
    const server = startServer({ PORT: '0', HOST: '0.0.0.0', DATA_DIR: dataDir, FLAGLIGHT_MODE: 'demo' });
    try {
      await waitFor(() => server.output().stdout.includes('reachable from the network'), 45_000);
      await server.stop();
      expect(server.output().stdout).toContain(
        'HOST=0.0.0.0: demo mode is reachable from the network, and so are its simulators',
      );
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });
});
