import os from 'node:os';
import path from 'node:path';

export interface PlatformEnv {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

export const currentPlatform = (): PlatformEnv => ({
  platform: process.platform,
  env: process.env,
  home: os.homedir(),
});

/**
 * The per-user folder for the link token, settings and log (packaging.md §4: never the install
 * folder, so an uninstall or reinstall keeps the link). Windows `%APPDATA%\Flaglight`, macOS
 * `~/Library/Application Support/Flaglight`, elsewhere `$XDG_CONFIG_HOME/flaglight`.
 */
export function defaultDataDir({ platform, env, home }: PlatformEnv = currentPlatform()): string {
  if (platform === 'win32') {
    const appData = env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, 'Flaglight');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Flaglight');
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : null;
  return path.posix.join(config ?? path.posix.join(home, '.config'), 'flaglight');
}

/** The operating system as a companion names itself to the server ("Windows 10.0.22631"). */
export function platformName(): string {
  const names: Partial<Record<NodeJS.Platform, string>> = {
    win32: 'Windows',
    darwin: 'macOS',
    linux: 'Linux',
  };
  return `${names[process.platform] ?? process.platform} ${os.release()}`.slice(0, 40);
}
