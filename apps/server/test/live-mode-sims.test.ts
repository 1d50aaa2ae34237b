import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const LIVE_ENV = {
  FLAGLIGHT_MODE: 'live',
  APP_SECRET: 'x'.repeat(32),
  TURNSTILE_SITE_KEY: 'site',
  TURNSTILE_SECRET_KEY: 'secret',
};

/**
 * Builds (and closes) the composition root and the app in a fresh Node process, and returns the
 * URL of every script that process ran: V8 coverage lists each one, however it was loaded.
 */
async function modulesLoadedBuilding(env: Record<string, string>): Promise<string[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-modules-'));
  const coverageDir = path.join(work, 'coverage');
  const src = (file: string) => JSON.stringify(pathToFileURL(path.join(serverDir, 'src', file)).href);
  const script = `
    const { parseConfig } = await import(${src('config.ts')});
    const { createContext } = await import(${src('context.ts')});
    const { buildApp } = await import(${src('app.ts')});
    const context = await createContext(parseConfig(process.env));
    const app = await buildApp({ context, webDistDir: ${JSON.stringify(path.join(work, 'no-web-build'))} });
    await app.ready();
    await app.close();
  `;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        FLAGLIGHT_TEST_RUN: process.env.FLAGLIGHT_TEST_RUN ?? '',
        NODE_V8_COVERAGE: coverageDir,
        DATA_DIR: path.join(work, 'data'),
        PORT: '0',
        LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    return fs.readdirSync(coverageDir).flatMap((file) => {
      const report = JSON.parse(fs.readFileSync(path.join(coverageDir, file), 'utf8')) as {
        result: { url: string }[];
      };
      return report.result.map((script) => script.url);
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const fromSims = (url: string) => url.includes('/packages/sims/');

describe('which workspaces each mode loads', () => {
  test('live mode never loads the simulators', async () => {
    const loaded = await modulesLoadedBuilding(LIVE_ENV);
    expect(loaded.some((url) => url.endsWith('/apps/server/src/context.ts'))).toBe(true);
    expect(loaded.filter(fromSims)).toEqual([]);
  });

  test('demo mode loads them through its dynamic import (the check above can see them)', async () => {
    const loaded = await modulesLoadedBuilding({ FLAGLIGHT_MODE: 'demo' });
    expect(loaded.some((url) => url.endsWith('/apps/server/src/demo/sims.ts'))).toBe(true);
    expect(loaded.filter(fromSims).length).toBeGreaterThan(0);
  });
});
