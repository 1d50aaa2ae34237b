import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PlatformEnv } from './paths.js';

export const RUN_VALUE_NAME = 'Flaglight Companion';
const RUN_KEY = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run';
const UNIT_NAME = 'flaglight-companion.service';
const AGENT_LABEL = 'app.flaglight.companion';

/** Runs a program and resolves with its exit code (never throws: a missing tool is a code too). */
export type Runner = (command: string, args: string[]) => Promise<{ code: number; output: string }>;

export const runProgram: Runner = (command, args) =>
  new Promise((resolve) => {
    execFile(command, args, { windowsHide: true, timeout: 15_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0;
      resolve({ code, output: `${stdout}${stderr}`.trim() });
    });
  });

export interface AutostartTarget {
  /** The program to start at log-in and its arguments (the executable itself, `--background`). */
  command: string[];
}

export interface AutostartResult {
  enabled: boolean;
  where: string;
  note?: string;
}

function quoteWindows(arg: string): string {
  return /[\s"]/.test(arg) ? `"${arg.replace(/"/g, '\\"')}"` : arg;
}

function systemdUnit(command: string[]): string {
  const exec = command
    .map((arg) => (/[\s"'\\]/.test(arg) ? `"${arg.replace(/(["\\])/g, '\\$1')}"` : arg))
    .join(' ');
  return [
    '[Unit]',
    'Description=Flaglight Companion (race flags on your lights)',
    'After=network-online.target',
    '',
    '[Service]',
    `ExecStart=${exec}`,
    'Restart=on-failure',
    'RestartSec=10',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function launchAgent(command: string[]): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key><string>${AGENT_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${command.map((arg) => `    <string>${escape(arg)}</string>`).join('\n')}
  </array>
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key><false/>
</dict>
</plist>
`;
}

/**
 * Starts the companion at log-in, per user, no admin rights: Windows the HKCU Run value (the one
 * the installer writes), Linux a systemd user unit, macOS a LaunchAgent.
 */
export async function setAutostart(
  enabled: boolean,
  target: AutostartTarget,
  env: PlatformEnv,
  run: Runner = runProgram,
): Promise<AutostartResult> {
  if (env.platform === 'win32') {
    const args = enabled
      ? [
          'add',
          RUN_KEY,
          '/v',
          RUN_VALUE_NAME,
          '/t',
          'REG_SZ',
          '/d',
          target.command.map((arg, i) => (i === 0 ? `"${arg}"` : quoteWindows(arg))).join(' '),
          '/f',
        ]
      : ['delete', RUN_KEY, '/v', RUN_VALUE_NAME, '/f'];
    const result = await run('reg', args);
    // Deleting a value that is not there is already "off".
    if (result.code !== 0 && enabled) throw new Error(`Could not write the Run value: ${result.output}`);
    return { enabled, where: `${RUN_KEY}\\${RUN_VALUE_NAME}` };
  }
  if (env.platform === 'darwin') {
    const file = path.join(env.home, 'Library', 'LaunchAgents', `${AGENT_LABEL}.plist`);
    if (enabled) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, launchAgent(target.command));
    } else {
      await run('launchctl', ['unload', file]);
      fs.rmSync(file, { force: true });
    }
    return { enabled, where: file };
  }
  const configHome =
    env.env.XDG_CONFIG_HOME && path.isAbsolute(env.env.XDG_CONFIG_HOME)
      ? env.env.XDG_CONFIG_HOME
      : path.join(env.home, '.config');
  const file = path.join(configHome, 'systemd', 'user', UNIT_NAME);
  if (enabled) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, systemdUnit(target.command));
    await run('systemctl', ['--user', 'daemon-reload']);
    const result = await run('systemctl', ['--user', 'enable', UNIT_NAME]);
    return result.code === 0
      ? { enabled, where: file }
      : { enabled, where: file, note: `Wrote ${file}; enable it with: systemctl --user enable ${UNIT_NAME}` };
  }
  await run('systemctl', ['--user', 'disable', UNIT_NAME]);
  fs.rmSync(file, { force: true });
  await run('systemctl', ['--user', 'daemon-reload']);
  return { enabled, where: file };
}

/** True inside the single executable (its own name), false under node/tsx. */
export function isSingleExecutable(): boolean {
  return /^flaglight-companion/i.test(path.basename(process.execPath));
}

/** How this very program is started again: the single executable itself, or node + script under tsx. */
export function selfCommand(): string[] {
  if (isSingleExecutable()) return [process.execPath, '--background'];
  return [process.execPath, ...process.execArgv, path.resolve(process.argv[1] ?? ''), '--background'];
}
