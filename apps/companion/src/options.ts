import { F1_LIVE_TIMING_URL } from '@flaglight/f1-live';
import {
  parseHomeAssistantUrl,
  parseNanoleafAddress,
  parseWledAddress,
  type NanoleafAddress,
  type WledAddress,
} from '@flaglight/lights/lan';
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
  goveeTargets?: string;
  goveePorts?: string;
  hueBridge?: string;
  nanoleaf?: string;
  wled?: string;
  homeAssistant?: string;
  homeAssistantInsecure?: boolean;
  lanScan?: boolean;
  name?: string;
  f1Live?: string;
  mqtt?: string;
  /** False with `--no-update`. */
  update?: boolean;
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

/**
 * Govee LAN ports: scan, listen (where replies come) and command, as `SCAN,LISTEN,COMMAND` or
 * `SCAN:LISTEN:COMMAND` (DESIGN §5.9). COMMAND `source` sends each device's commands to the port
 * its scan reply came from: a loopback simulator, where every device is 127.0.0.1.
 */
export interface GoveePorts {
  scan: number;
  listen: number;
  command: number | 'source';
}

export const GOVEE_DEFAULT_PORTS: GoveePorts = { scan: 4001, listen: 4002, command: 4003 };

export function parseGoveePorts(value: string): GoveePorts {
  const parts = value.split(/[,:]/).map((part) => part.trim());
  if (parts.length !== 3)
    throw new OptionError(`--govee-ports: "${value}" is not SCAN,LISTEN,COMMAND (default 4001,4002,4003)`);
  const [scan, listen, command] = parts as [string, string, string];
  const port = (text: string, what: string) => {
    const n = parsePort(text, `--govee-ports (${what})`);
    if (n === 0) throw new OptionError(`--govee-ports (${what}): 0 is not a port to use`);
    return n;
  };
  const ports: GoveePorts = {
    scan: port(scan, 'scan'),
    listen: port(listen, 'listen'),
    command: command === 'source' ? 'source' : port(command, 'command'),
  };
  if (ports.listen === ports.scan || ports.listen === ports.command)
    throw new OptionError('--govee-ports: the listen port must differ from the scan and command ports');
  return ports;
}

/** `HOST[:PORT][,…]` where the Govee scan goes (unicast); a bare host means the scan port. */
export function parseGoveeTargets(value: string, scanPort: number): { host: string; port: number }[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^(\[[^\]]+\]|[^:\s]+)(?::(\d{1,5}))?$/.exec(part);
      if (!match?.[1]) throw new OptionError(`--govee-targets: "${part}" is not HOST or HOST:PORT`);
      const host = match[1].replace(/^\[|\]$/g, '');
      if (host.includes(':'))
        throw new OptionError(`--govee-targets: "${host}": Govee's LAN API is IPv4 only`);
      const port = match[2] ? parsePort(match[2], '--govee-targets') : scanPort;
      if (port === 0) throw new OptionError(`--govee-targets: "${part}": 0 is not a port to scan`);
      return { host, port };
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

/** A comma-separated list of device addresses, each read by `parse`; a bad one names its flag. */
function parseAddressList<T>(value: string, flag: string, parse: (part: string) => T): T[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      try {
        return parse(part);
      } catch (error) {
        throw new OptionError(`${flag}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
}

/** `HOST[:PORT][,…]` of Nanoleaf controllers (DESIGN §5.9 `--nanoleaf`); a bare host means port 16021. */
export function parseNanoleafAddresses(value: string): NanoleafAddress[] {
  return parseAddressList(value, '--nanoleaf', parseNanoleafAddress);
}

/** `HOST[:PORT][,…]` of WLED devices (`--wled`); a bare host means port 80. */
export function parseWledAddresses(value: string): WledAddress[] {
  return parseAddressList(value, '--wled', parseWledAddress);
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

/** `--f1-live <url|off>`: the F1 live-timing hub (`…/signalrcore`) the companion follows while the server is unreachable. */
export function parseF1Live(value: string): string | null {
  const text = value.trim();
  if (text.toLowerCase() === 'off') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OptionError(`--f1-live: "${value}" is neither a URL nor off (example: ${F1_LIVE_TIMING_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OptionError('--f1-live: use an http:// or https:// address, or off');
  if (url.username || url.password)
    throw new OptionError('--f1-live: no user name or password in the address');
  if (url.search || url.hash) throw new OptionError('--f1-live: the hub address takes no query or fragment');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/**
 * The fallback's hub: `--f1-live`, else `FLAGLIGHT_F1_LIVE`, else F1's own in production and the
 * demo server's simulator with `--demo` (the explicit option covers a demo whose server is the one down).
 */
export function resolveF1Live(
  flag: string | undefined,
  common: Pick<ResolvedCommon, 'demo' | 'server'>,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const text =
    flag ??
    env.FLAGLIGHT_F1_LIVE ??
    (common.demo ? `${common.server}/sims/f1live/signalrcore` : F1_LIVE_TIMING_URL);
  return parseF1Live(text);
}

/**
 * `--home-assistant URL` (else `FLAGLIGHT_HA_URL`), its token from `FLAGLIGHT_HA_TOKEN` (a token
 * is never an option: command lines are visible to every user of the computer), and
 * `--home-assistant-insecure` (else `FLAGLIGHT_HA_INSECURE=1`) to accept a self-signed certificate.
 */
export function resolveHomeAssistant(
  flags: Pick<RunFlags, 'homeAssistant' | 'homeAssistantInsecure'>,
  env: NodeJS.ProcessEnv = process.env,
): { url: string | null; token: string | null; insecure: boolean } {
  const text = (flags.homeAssistant ?? env.FLAGLIGHT_HA_URL ?? '').trim();
  let url: string | null;
  try {
    url = text === '' ? null : parseHomeAssistantUrl(text);
  } catch (error) {
    throw new OptionError(`--home-assistant: ${error instanceof Error ? error.message : String(error)}`);
  }
  const token = env.FLAGLIGHT_HA_TOKEN?.trim() || null;
  return { url, token, insecure: flags.homeAssistantInsecure ?? env.FLAGLIGHT_HA_INSECURE === '1' };
}
