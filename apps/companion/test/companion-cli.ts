// The companion's command line in a process of its own (`run --demo` against a demo server), for
// the tests that kill it with SIGKILL and start it again on the same data folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { entryCommand } from '../../../scripts/entry-bundle.mjs';
import { startCompanion, type Companion } from '../src/companion.js';
import { GOVEE_DEFAULT_PORTS } from '../src/options.js';
import { call, until } from './demo-server.js';

const COMPANION_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface CompanionRun {
  child: ChildProcess;
  /** Its status page's JSON (`GET /api/status`). */
  status(): Promise<Record<string, unknown>>;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** kill -9, and waits until it has gone. */
  kill(): Promise<void>;
  /** SIGTERM (SIGKILL after 10 s), and waits until it has gone. */
  stop(): Promise<void>;
}

/** Starts `flaglight-companion run --demo` with its status page on `port` and its data in `dataDir`. */
export async function runCompanion(options: {
  server: string;
  port: number;
  dataDir: string;
}): Promise<CompanionRun> {
  const [node, bundle] = await entryCommand('companion');
  const child = spawn(
    node,
    [
      ...bundle,
      'run',
      '--demo',
      '--server',
      options.server,
      '--no-browser',
      '--data-dir',
      options.dataDir,
      '--port',
      String(options.port),
      '--name',
      'Living room',
    ],
    { cwd: COMPANION_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => output,
    async status() {
      const response = await fetch(`http://127.0.0.1:${options.port}/api/status`);
      if (!response.ok) throw new Error(`the status page answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    },
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Links a companion started by `runCompanion` to the account of `session`, as a fan approves its code. */
export async function linkCompanion(run: CompanionRun, server: string, session: string): Promise<void> {
  const [, code] = await until(() => /confirm ([A-Z]{4}-[A-Z]{4})/.exec(run.output()), 'the link code');
  await call(server, 'POST', '/api/device/approve', { code }, session);
}

/**
 * The companion started again in this process on a data folder a companion already linked (after
 * `kill()`): quicker to start than a new process, the same code.
 */
export async function startLinkedAgain(options: { server: string; dataDir: string }): Promise<Companion> {
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
    deviceName: 'Living room',
  });
  if (started.kind !== 'started') throw new Error('a companion already runs on the port');
  return started.companion;
}
