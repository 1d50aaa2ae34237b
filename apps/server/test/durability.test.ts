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

function start(dataDir: string) {
  // Node itself on the bundled server (scripts/entry-bundle.mjs), so the process the test holds
  // (and kills) is the server.
  const [node, args] = serverCommand;
  const child = spawn(node, args, {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      FLAGLIGHT_TEST_RUN: process.env.FLAGLIGHT_TEST_RUN ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FLAGLIGHT_MODE: 'demo',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  /** Ends the server if it still runs (a failed or timed-out test too), and waits for its exit. */
  const stop = async () => {
    if (running()) child.kill('SIGKILL');
    await exited;
  };
  const url = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 50);
    child.on('exit', () => {
      clearInterval(timer);
      reject(new Error(`server exited early:\n${out}`));
    });
  });
  // A server that exits early rejects `url`; a test that never awaits it must not fail on that.
  url.catch(() => undefined);
  return { child, url, exited, stop };
}

async function botToken(url: string): Promise<string> {
  const res = await fetch(`${url}/sims/turnstile/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await res.json()) as { token: string }).token;
}

describe('durability', () => {
  test(
    'kill -9 during a sign-up burst: every acknowledged account is there after a restart',
    { timeout: paced(120_000) },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-kill-'));
      const servers: ReturnType<typeof start>[] = [];
      try {
        const first = start(dataDir);
        servers.push(first);
        const url = await first.url;
        const acknowledged: string[] = [];
        const attempts = Array.from({ length: 40 }, (_, i) => async () => {
          const email = `burst${i}@example.com`;
          try {
            const res = await fetch(`${url}/auth/signup`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email, password: 'Secret!123', turnstileToken: await botToken(url) }),
            });
            if (res.status === 201) acknowledged.push(email);
          } catch {
            // The connection died with the server: not acknowledged, so not promised.
          }
        });
        const burst = Promise.all(
          attempts.map((run, i) => new Promise((r) => setTimeout(r, i * 15)).then(run)),
        );
        // Kill the server while sign-ups are in flight.
        while (acknowledged.length < 5) await new Promise((r) => setTimeout(r, 10));
        first.child.kill('SIGKILL');
        await first.exited;
        await burst;
        expect(acknowledged.length).toBeGreaterThanOrEqual(5);

        const second = start(dataDir);
        servers.push(second);
        const url2 = await second.url;
        try {
          for (const email of acknowledged) {
            const res = await fetch(`${url2}/auth/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email, password: 'Secret!123', turnstileToken: await botToken(url2) }),
            });
            expect(res.status, email).toBe(200);
          }
        } finally {
          second.child.kill('SIGTERM');
          await second.exited;
        }
      } finally {
        for (const server of servers) await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
