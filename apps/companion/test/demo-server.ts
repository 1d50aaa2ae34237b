// A Flaglight server in demo mode, in a process of its own (a fresh SQLite, its simulators: OpenF1
// with the demo race, Turnstile, the LAN lights at /sims/lan), and the account calls a fan makes,
// for the companion's tests that run against the real server.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryCommand } from '../../../scripts/entry-bundle.mjs';
import { pollFor } from '../../../scripts/test-pace.mjs';
import { startCompanion, type Companion } from '../src/companion.js';
import { GOVEE_DEFAULT_PORTS } from '../src/options.js';

const SERVER_DIR = fileURLToPath(new URL('../../server', import.meta.url));

export interface DemoServer {
  url: string;
  /** kill -9, then started again on the same port with the same database: a new LAN simulator. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Polls `check` until it gives something truthy; the error names `what` (a function: read only then).
 * `ms` stretches on a slower host (paced).
 */
export const until = <T>(
  check: () => T | Promise<T>,
  what: string | (() => string),
  { ms = 30_000, everyMs = 100 } = {},
) => pollFor(check, what, ms, everyMs);

interface ServerProcess {
  url: string;
  stop(signal: NodeJS.Signals): Promise<void>;
}

async function spawnServer(
  dataDir: string,
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const [node, args] = await entryCommand('server');
  const child: ChildProcess = spawn(node, args, {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FLAGLIGHT_MODE: 'demo',
      F1_LIVE_TIMING: 'off',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      // A server that ends by itself fails the test that needed it: say why.
      if (!stopping) console.error(`the demo server exited (${code ?? signal}):\n${output.slice(-3_000)}`);
      resolve();
    }),
  );
  const stop = async (signal: NodeJS.Signals) => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    // A graceful stop waits for open connections; these tests do not need one.
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(kill);
  };
  try {
    const url = await until(
      () => {
        if (child.exitCode !== null) throw new Error(`the server exited: ${output.slice(-2_000)}`);
        return /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      },
      'the server to listen',
      { ms: 60_000 },
    );
    return { url, stop };
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
}

/** `env`: more of the server's settings (e.g. DOWNLOADS_DIR for the update tests). */
export async function startDemoServer(options: { env?: Record<string, string> } = {}): Promise<DemoServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-companion-demo-server-'));
  let running: ServerProcess;
  try {
    running = await spawnServer(dataDir, 0, options.env);
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const url = running.url;
  return {
    url,
    async restart() {
      await running.stop('SIGKILL');
      running = await spawnServer(dataDir, Number(new URL(url).port), options.env);
    },
    async stop() {
      await running.stop('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One JSON call; a status other than 2xx throws with the answer. */
export async function call(
  base: string,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<unknown> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : {};
}

/** A new trial account (the Turnstile simulator's token); its session token. */
export async function signUp(base: string): Promise<string> {
  const config = (await call(base, 'GET', '/api/config')) as {
    turnstile: { siteKey: string; tokenUrl?: string };
  };
  const bot = (await call(base, 'POST', config.turnstile.tokenUrl ?? '/sims/turnstile/token', {
    sitekey: config.turnstile.siteKey,
    action: 'signup',
  })) as { token: string };
  const session = (await call(base, 'POST', '/auth/signup', {
    email: `companion.${Date.now().toString(36)}.${process.pid}@example.com`,
    password: 'Checkered1!',
    plan: 'trial',
    turnstileToken: bot.token,
  })) as { token: string };
  return session.token;
}

/** Places the demo's live race (the OpenF1 simulator) at a minute of a recording, at a speed. */
export async function setDemoRace(base: string, fixture: string, positionMinutes: number, speed: number) {
  await call(base, 'PUT', '/sims/openf1/_control/replays', {
    replays: [{ fixture, positionMinutes, speed }],
  });
}

/** Pauses (0) or resumes the demo's race: the same session goes on. */
export async function setDemoRaceSpeed(base: string, speed: number) {
  await call(base, 'POST', '/sims/openf1/_control/speed', { speed });
}

/**
 * A companion in demo mode against `server` (its LAN simulator for lights), linked to the account of
 * `session` as a fan approves its code. It is closed again when linking fails, so nothing is left running.
 */
export async function startLinkedDemoCompanion(options: {
  server: string;
  session: string;
  dataDir: string;
  deviceName: string;
}): Promise<Companion> {
  const started = await startCompanion({
    server: options.server,
    dataDir: options.dataDir,
    port: 0,
    openBrowser: false,
    demo: true,
    lifxTargets: [],
    goveeTargets: [],
    goveePorts: GOVEE_DEFAULT_PORTS,
    nanoleaf: [],
    hueBridges: [],
    lanScan: false,
    console: false,
    logToFile: false,
    deviceName: options.deviceName,
  });
  if (started.kind !== 'started') throw new Error('a companion already runs on the port');
  const running = started.companion;
  try {
    const code = await until(() => running.status().userCode as string | undefined, 'the link code');
    await call(options.server, 'POST', '/api/device/approve', { code }, options.session);
    return running;
  } catch (error) {
    await running.close();
    throw error;
  }
}
