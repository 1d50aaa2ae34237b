import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreeTcpPort } from '@flaglight/sims';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { createLogger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { installUpdate, swapBack, swapInto } from './install.js';
import type { Manifest } from './manifest.js';

// The file swap and the handover with small stand-in programs (shell scripts running this Node):
// the packaged executables go through the same code in test/package.test.ts.
let dir: string;
let exe: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-install-'));
  exe = path.join(dir, 'flaglight-companion-linux-x64');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function program(file: string, body: string): void {
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

const manifest = { version: '0.2.0' } as Manifest;

function deps(port: number, events: string[]) {
  return {
    executable: exe,
    args: ['run', '--port', String(port)],
    port,
    dataDir: path.join(dir, 'data'),
    running: '0.1.0',
    log: createLogger({ console: false }),
    stopHere: () => {
      events.push('stopped');
      return Promise.resolve();
    },
    restartHere: () => {
      events.push('restarted');
      return Promise.resolve();
    },
    exit: () => events.push('exit'),
    answerTimeoutMs: 8_000,
  };
}

describe('putting the new file in place', () => {
  test('Linux: one rename replaces the executable; the old one stays as .previous; swapping back restores it', () => {
    program(exe, 'echo old');
    program(`${exe}.download`, 'echo new');
    swapInto(`${exe}.download`, exe, 'linux');
    expect(fs.readFileSync(exe, 'utf8')).toContain('echo new');
    expect(fs.readFileSync(`${exe}.previous`, 'utf8')).toContain('echo old');
    expect(fs.existsSync(`${exe}.download`)).toBe(false);
    swapBack(exe, 'linux');
    expect(fs.readFileSync(exe, 'utf8')).toContain('echo old');
    expect(fs.existsSync(`${exe}.previous`)).toBe(false);
  });

  test('Windows: the running file is renamed aside first, then the new one takes its name', () => {
    program(exe, 'echo old');
    program(`${exe}.download`, 'echo new');
    swapInto(`${exe}.download`, exe, 'win32');
    expect(fs.readFileSync(exe, 'utf8')).toContain('echo new');
    expect(fs.readFileSync(`${exe}.previous`, 'utf8')).toContain('echo old');
    swapBack(exe, 'win32');
    expect(fs.readFileSync(exe, 'utf8')).toContain('echo old');
    expect(fs.readdirSync(dir).sort()).toEqual(['flaglight-companion-linux-x64']);
  });
});

describe('the handover', () => {
  test('the new version answers on the bridge port: this process ends, the outcome is kept', async () => {
    const port = await findFreeTcpPort();
    program(exe, 'echo old');
    // The new "version": answers /api/status on the port it is given, as 0.2.0, then goes away.
    program(
      `${exe}.download`,
      `exec "${process.execPath}" -e "const s=require('http').createServer((q,r)=>r.end(JSON.stringify({version:'0.2.0',linked:true}))).listen(Number(process.argv[3]),'127.0.0.1');setTimeout(()=>s.close(),5000)" -- "$@"`,
    );
    const events: string[] = [];
    void installUpdate(`${exe}.download`, manifest, deps(port, events));
    const end = Date.now() + paced(8_000);
    while (!events.includes('exit') && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual(['stopped', 'exit']);
    const store = new StateFile(path.join(dir, 'data'));
    const { updates } = store.load().state;
    // Written before the new version started; the new version turns it into its note at start.
    expect(updates?.pending).toMatchObject({ version: '0.2.0', from: '0.1.0', restarts: 0 });
    expect(updates?.note).toBeUndefined();
  });

  test('a new version that exits at start is rolled back after three exits, and not tried again by itself', async () => {
    const port = await findFreeTcpPort();
    program(exe, 'echo old');
    program(`${exe}.download`, `echo started >> "${dir}/starts"; exit 1`);
    const events: string[] = [];
    const outcome = await installUpdate(`${exe}.download`, manifest, deps(port, events));
    expect(outcome.message).toBe(
      'Update to 0.2.0 failed and was rolled back (it exited 3 times); 0.1.0 runs on.',
    );
    expect(events).toEqual(['stopped', 'restarted']);
    expect(fs.readFileSync(`${dir}/starts`, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(fs.readFileSync(exe, 'utf8')).toContain('echo old');
    expect(fs.existsSync(`${exe}.previous`)).toBe(false);
    const store = new StateFile(path.join(dir, 'data'));
    // The handover's record is gone with the failed version: nothing is pending any more.
    expect(store.load().state.updates).toEqual({
      auto: true,
      failed: ['0.2.0'],
      note: 'Update to 0.2.0 failed and was rolled back.',
    });
  });

  test('a new version that never answers is stopped and rolled back at the time limit', async () => {
    const port = await findFreeTcpPort();
    program(exe, 'echo old');
    program(`${exe}.download`, 'exec sleep 60');
    const events: string[] = [];
    const outcome = await installUpdate(`${exe}.download`, manifest, {
      ...deps(port, events),
      answerTimeoutMs: 1_500,
    });
    expect(outcome.message).toBe(
      'Update to 0.2.0 failed and was rolled back (it did not answer within 2 seconds); 0.1.0 runs on.',
    );
    expect(fs.readFileSync(exe, 'utf8')).toContain('echo old');
  });
});
