import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryCommand } from '../../scripts/entry-bundle.mjs';
import { paced } from '../../scripts/test-pace.mjs';

// The desktop companion as the journeys run it: the built Linux executable when there is one (npm
// test builds it first), else its sources, in a data folder and on a bridge port of the journey's own.
// E2E_COMPANION=sources runs the sources even beside a build (a build older than the change at hand).

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const COMPANION_EXECUTABLE = path.join(REPO_ROOT, 'apps/companion/dist/flaglight-companion-linux-x64');

/** Polls `check` until it gives something truthy; the error names `what`, the last failure and `context()`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  ms: number,
  context: () => string = () => '',
): Promise<T> {
  const end = Date.now() + paced(ms);
  let last: Error | null = null;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error instanceof Error ? error : new Error(String(error));
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}\n${context()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Ends a process (SIGKILL after `graceMs` if `signal` did not) and waits until it has exited. */
export async function endProcess(
  child: ChildProcess | null,
  signal: NodeJS.Signals,
  graceMs = 10_000,
): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface CompanionProcess {
  process: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output: () => string;
  /** Which build ran: the executable's path, or "sources (no build)". */
  ran: string;
  /** The end of what it printed, for a failure's message. */
  context: () => string;
}

/** Starts `flaglight-companion run --demo` against `server`, with its status page on `bridgePort`. */
export async function spawnCompanion(options: {
  server: string;
  bridgePort: number;
  dataDir: string;
  name: string;
  extraArgs?: string[];
}): Promise<CompanionProcess> {
  const built = process.env.E2E_COMPANION !== 'sources' && existsSync(COMPANION_EXECUTABLE);
  // Without the executable, its sources bundled as one file (scripts/entry-bundle.mjs).
  const [command, args] = built ? [COMPANION_EXECUTABLE, []] : await entryCommand('companion');
  const child = spawn(
    command,
    [
      ...args,
      'run',
      '--demo',
      '--server',
      options.server,
      '--no-browser',
      '--data-dir',
      options.dataDir,
      '--port',
      String(options.bridgePort),
      '--name',
      options.name,
      // The journeys are not about updates: no manifest request on the downloads' rate limit.
      '--no-update',
      ...(options.extraArgs ?? []),
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    process: child,
    output: () => output,
    ran: built ? COMPANION_EXECUTABLE : 'sources (no build)',
    context: () => `companion output:\n${output.slice(-3_000)}`,
  };
}

export interface DemoServer {
  base: string;
  process: ChildProcess;
}

/** How much of a demo server's stderr is kept for an error message. */
const SERVER_OUTPUT_KEPT = 4_000;

/**
 * A demo server of a journey's own on `port` (a journey that kills it, or moves its race): Node
 * runs the bundled server (scripts/entry-bundle.mjs) in this one process, so kill -9 really kills it.
 * Its stderr is read all along: a pipe nobody reads fills, and a server writing to it then stops.
 * One that exits before it answers fails the start at once, with what it wrote.
 */
export async function startDemoServer(options: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<DemoServer> {
  const base = `http://127.0.0.1:${options.port}`;
  const [node, args] = await entryCommand('server');
  const child = spawn(node, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      FLAGLIGHT_MODE: 'demo',
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: base,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-SERVER_OUTPUT_KEPT);
  });
  const context = () => `demo server on port ${options.port}, its stderr:\n${output || '(nothing)'}`;
  const ended: { exit: string | null } = { exit: null };
  child.once('exit', (code, signal) => (ended.exit = String(code ?? signal)));
  try {
    // Seconds on an idle machine; far longer while the machine's cores are busy (CI runs the static
    // checks beside the journeys): the journeys that start one give it this long.
    await waitFor(
      'the demo server',
      // Each try is bounded: a port someone else holds may take the request and never answer.
      async () =>
        ended.exit !== null || (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok,
      120_000,
      context,
    );
    if (ended.exit !== null)
      throw new Error(`the demo server exited (${ended.exit}) before it answered\n${context()}`);
  } catch (error) {
    await endProcess(child, 'SIGKILL');
    throw error;
  }
  return { base, process: child };
}

/** Places the demo's live race (the OpenF1 simulator) at a minute of a recording, at a speed. */
export async function setDemoRace(base: string, fixture: string, positionMinutes: number, speed: number) {
  const response = await fetch(`${base}/sims/openf1/_control/replays`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ replays: [{ fixture, positionMinutes, speed }] }),
  });
  if (!response.ok) throw new Error(`the OpenF1 simulator refused the race: ${response.status}`);
}

/** Pauses (0) or resumes the demo's race: the same session goes on (a new replay would be a new session). */
export async function setDemoRaceSpeed(base: string, speed: number) {
  const response = await fetch(`${base}/sims/openf1/_control/speed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ speed }),
  });
  if (!response.ok) throw new Error(`the OpenF1 simulator refused the speed: ${response.status}`);
}

/**
 * Starts the companion against `server` and links it to the account of `token` as a fan would
 * approve it (the code it prints, `POST /api/device/approve`); `context()` is its output for a
 * failure's message.
 */
export async function startLinkedCompanion(options: {
  server: string;
  bridgePort: number;
  dataDir: string;
  name: string;
  token: string;
}): Promise<CompanionProcess> {
  const companion = await spawnCompanion(options);
  const { context } = companion;
  const [, userCode] = await waitFor(
    'the link line',
    async () => /confirm ([A-Z]{4}-[A-Z]{4})/.exec(companion.output()),
    30_000,
    context,
  );
  const approved = await fetch(`${options.server}/api/device/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
    body: JSON.stringify({ code: userCode }),
  });
  if (!approved.ok) throw new Error(`approving ${userCode} failed: ${approved.status}\n${context()}`);
  return companion;
}
