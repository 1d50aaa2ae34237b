import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreeTcpPort } from '@flaglight/sims';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { entryCommand } from '../../../scripts/entry-bundle.mjs';
import { paced } from '../../../scripts/test-pace.mjs';

// `flaglight-companion status` prints the names paired devices and the server gave: on a terminal,
// they must not start lines, move the cursor or reorder what is printed.

const COMPANION_DIR = fileURLToPath(new URL('..', import.meta.url));
const HOSTILE =
  'Den\n2026-11-29T10:00:00.000Z INFO Linked as evil \u202eevil\u001b]0;title\u0007\u001b[2J\u0000';
const ESCAPED =
  'Den\\n2026-11-29T10:00:00.000Z INFO Linked as evil \\u{202e}evil\\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{0}';
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-cli-'));
  const state = {
    server: 'http://127.0.0.1:1',
    token: 'device-token',
    device: { id: 'd1', name: `Laptop ${HOSTILE}` },
    hueBridges: [
      { url: 'https://127.0.0.1:1', bridgeId: '001788fffe0e7101', applicationKey: 'k', name: HOSTILE },
    ],
    nanoleafDevices: [{ host: '127.0.0.1', port: 16021, token: 't', id: 's1', name: HOSTILE }],
    paused: false,
  };
  fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify(state));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function status(...extra: string[]): Promise<string> {
  const port = await findFreeTcpPort();
  const args = ['status', '--server', 'http://127.0.0.1:1', '--data-dir', dir, '--port', String(port)];
  const [node, bundle] = await entryCommand('companion');
  const result = spawnSync(node, [...bundle, ...args, ...extra], {
    cwd: COMPANION_DIR,
    encoding: 'utf8',
    timeout: paced(30_000),
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe('the status command', () => {
  test('prints stored device names escaped, one line each', async () => {
    const lines = (await status()).replace(/\n$/, '').split('\n');
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    expect(lines.filter((line) => line.startsWith('2026-11-29'))).toEqual([]);
    expect(lines).toContain(`Linked:      yes (Laptop ${ESCAPED})`);
    expect(lines).toContain(`Hue bridges: ${ESCAPED}`);
    expect(lines).toContain(`Nanoleaf:    ${ESCAPED}`);
  });

  test('--json is one line of valid JSON with the names escaped inside their strings', async () => {
    const printed = await status('--json');
    expect(printed.replace(/\n$/, '')).not.toMatch(UNSAFE);
    const report = JSON.parse(printed) as {
      device: { name: string };
      hueBridges: { name: string }[];
      nanoleaf: { name: string }[];
    };
    expect(report.device.name).toBe(`Laptop ${ESCAPED}`);
    expect(report.hueBridges[0]!.name).toBe(ESCAPED);
    expect(report.nanoleaf[0]!.name).toBe(ESCAPED);
  });
});
