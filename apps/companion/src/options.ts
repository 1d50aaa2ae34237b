import { parseNanoleafAddress, type NanoleafAddress } from '@flaglight/lights/lan';
import { DEFAULT_BRIDGE_PORT } from './bridge/local-bridge.js';
import { defaultDataDir } from './system/paths.js';

declare const __DEFAULT_SERVER__: string | undefined;

/** The public server this build follows unless told otherwise (set at build time). */
export const DEFAULT_SERVER: string =
  typeof __DEFAULT_SERVER__ === 'string' ? __DEFAULT_SERVER__ : 'https://flaglight.app';
/** `--demo` without `--server`: the demo server of `npm start`. */
export const DEMO_SERVER = 'http://127.0.0.1:3000';

export class OptionError extends Error {
  override readonly name = 'OptionError';
}

export interface CommonFlags {
  server?: string;
  demo?: boolean;
  dataDir?: string;
  port?: string;
}

export interface RunFlags extends CommonFlags {
  browser?: boolean;
  background?: boolean;
  lifxTargets?: string;
  hueBridge?: string;
  nanoleaf?: string;
  lanScan?: boolean;
  name?: string;
}

export interface ResolvedCommon {
  server: string;
  demo: boolean;
  dataDir: string;
  port: number;
}

export function parseServer(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OptionError(`--server: "${value}" is not a URL (example: https://flaglight.app)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OptionError('--server: use an http:// or https:// address');
  if (url.username || url.password)
    throw new OptionError('--server: no user name or password in the address');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export function parsePort(value: string, flag = '--port'): number {
  if (!/^\d{1,5}$/.test(value.trim())) throw new OptionError(`${flag}: "${value}" is not a port number`);
  const port = Number(value);
  if (port > 65_535) throw new OptionError(`${flag}: ${port} is above 65535`);
  return port;
}

/** `HOST:PORT[,HOST:PORT…]` (DESIGN §5.9 `--lifx-targets`); a bare host means port 56700. */
export function parseLifxTargets(value: string): { host: string; port: number }[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^(\[[^\]]+\]|[^:\s]+)(?::(\d{1,5}))?$/.exec(part);
      if (!match?.[1]) throw new OptionError(`--lifx-targets: "${part}" is not HOST:PORT`);
      const host = match[1].replace(/^\[|\]$/g, '');
      return { host, port: match[2] ? parsePort(match[2], '--lifx-targets') : 56_700 };
    });
}

/** `URL[,URL…]` of Hue bridges (`https://192.168.1.20`). */
export function parseHueBridges(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const withScheme = /^https?:\/\//i.test(part) ? part : `https://${part}`;
      let url: URL;
      try {
        url = new URL(withScheme);
      } catch {
        throw new OptionError(`--hue-bridge: "${part}" is not an address`);
      }
      if (url.protocol !== 'https:') throw new OptionError('--hue-bridge: Hue bridges speak HTTPS (CLIP v2)');
      return url.origin;
    });
}

/** `HOST[:PORT][,…]` of Nanoleaf controllers (DESIGN §5.9 `--nanoleaf`); a bare host means port 16021. */
export function parseNanoleafAddresses(value: string): NanoleafAddress[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      try {
        return parseNanoleafAddress(part);
      } catch (error) {
        throw new OptionError(`--nanoleaf: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
}

export function resolveCommon(flags: CommonFlags, env: NodeJS.ProcessEnv = process.env): ResolvedCommon {
  const demo = Boolean(flags.demo);
  const serverText = flags.server ?? env.FLAGLIGHT_SERVER ?? (demo ? DEMO_SERVER : DEFAULT_SERVER);
  return {
    server: parseServer(serverText),
    demo,
    dataDir: flags.dataDir ?? env.FLAGLIGHT_DATA_DIR ?? defaultDataDir(),
    port: flags.port !== undefined ? parsePort(flags.port) : DEFAULT_BRIDGE_PORT,
  };
}

/** Whether a server address is this computer (demo, development, tests). */
export function isLoopbackServer(server: string): boolean {
  const host = new URL(server).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}
