import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { StateFile } from './state-file.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-state-'));
  dirs.push(dir);
  return path.join(dir, 'data');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('StateFile', () => {
  test('starts empty, keeps what it is given across loads, and writes the file 0600 in a 0700 folder', () => {
    const dir = tempDir();
    const first = new StateFile(dir);
    expect(first.load().state).toEqual({ hueBridges: [], nanoleafDevices: [], paused: false });
    first.update((s) => ({
      ...s,
      server: 'http://127.0.0.1:3000',
      token: 'secret-token',
      device: { id: 'd1', name: 'PC' },
    }));
    const again = new StateFile(dir).load().state;
    expect(again.token).toBe('secret-token');
    expect(again.device).toEqual({ id: 'd1', name: 'PC' });
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.join(dir, 'state.json')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  test('Nanoleaf tokens are kept; a file from before Nanoleaf loads with none', () => {
    const dir = tempDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'state.json'), '{"hueBridges": [], "paused": false}');
    const store = new StateFile(dir);
    expect(store.load().state.nanoleafDevices).toEqual([]);
    const device = { host: '192.168.1.31', port: 16021, token: 'a'.repeat(32), id: 's1924', name: 'Shapes' };
    store.update((s) => ({ ...s, nanoleafDevices: [device] }));
    expect(new StateFile(dir).load().state.nanoleafDevices).toEqual([device]);
  });

  test('an unreadable file is kept aside and the companion starts unlinked', () => {
    const dir = tempDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'state.json'), '{"token": 5');
    const loaded = new StateFile(dir).load();
    expect(loaded.state.token).toBeUndefined();
    expect(loaded.warning).toMatch(/state\.json\.bad/);
    expect(fs.readFileSync(path.join(dir, 'state.json.bad'), 'utf8')).toBe('{"token": 5');
  });
});
