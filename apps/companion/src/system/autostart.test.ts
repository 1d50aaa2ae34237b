import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { setAutostart, type Runner } from './autostart.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const home = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-autostart-'));
  dirs.push(dir);
  return dir;
};

/** Records the system programs autostart calls (reg, systemctl, launchctl) instead of changing this machine. */
function recorder(code = 0) {
  const calls: string[] = [];
  const run: Runner = async (command, args) => {
    calls.push([command, ...args].join(' '));
    return { code, output: '' };
  };
  return { calls, run };
}

const command = ['/opt/Flaglight Companion/flaglight-companion-linux-x64', '--background'];

describe('autostart', () => {
  test('Windows: the per-user Run value the installer also writes, quoted', async () => {
    const { calls, run } = recorder();
    await setAutostart(
      true,
      {
        command: [
          'C:\\Users\\f\\AppData\\Local\\Programs\\Flaglight\\flaglight-companion-win-x64.exe',
          '--background',
        ],
      },
      { platform: 'win32', env: {}, home: 'C:\\Users\\f' },
      run,
    );
    expect(calls).toEqual([
      'reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v Flaglight Companion /t REG_SZ /d "C:\\Users\\f\\AppData\\Local\\Programs\\Flaglight\\flaglight-companion-win-x64.exe" --background /f',
    ]);
    await setAutostart(false, { command: [] }, { platform: 'win32', env: {}, home: 'C:\\Users\\f' }, run);
    expect(calls[1]).toBe(
      'reg delete HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v Flaglight Companion /f',
    );
  });

  test('Linux: a systemd user unit, enabled; off removes it', async () => {
    const dir = home();
    const { calls, run } = recorder();
    const result = await setAutostart(
      true,
      { command },
      { platform: 'linux', env: { XDG_CONFIG_HOME: dir }, home: dir },
      run,
    );
    const unit = path.join(dir, 'systemd', 'user', 'flaglight-companion.service');
    expect(result.where).toBe(unit);
    const text = fs.readFileSync(unit, 'utf8');
    expect(text).toContain('ExecStart="/opt/Flaglight Companion/flaglight-companion-linux-x64" --background');
    expect(text).toContain('WantedBy=default.target');
    expect(calls).toContain('systemctl --user enable flaglight-companion.service');
    await setAutostart(
      false,
      { command },
      { platform: 'linux', env: { XDG_CONFIG_HOME: dir }, home: dir },
      run,
    );
    expect(fs.existsSync(unit)).toBe(false);
  });

  test('Linux without a systemd user session: the unit is written and the note says how to enable it', async () => {
    const dir = home();
    const { run } = recorder(1);
    const result = await setAutostart(true, { command }, { platform: 'linux', env: {}, home: dir }, run);
    expect(result.note).toMatch(/systemctl --user enable/);
    expect(fs.existsSync(path.join(dir, '.config', 'systemd', 'user', 'flaglight-companion.service'))).toBe(
      true,
    );
  });

  test('macOS: a LaunchAgent that runs at log-in', async () => {
    const dir = home();
    const { run } = recorder();
    const result = await setAutostart(true, { command }, { platform: 'darwin', env: {}, home: dir }, run);
    const text = fs.readFileSync(result.where, 'utf8');
    expect(text).toContain('<key>RunAtLoad</key><true/>');
    expect(text).toContain('<string>/opt/Flaglight Companion/flaglight-companion-linux-x64</string>');
  });
});
