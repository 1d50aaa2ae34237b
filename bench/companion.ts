/**
 * The desktop companion's timing and footprint (DESIGN §7: a flag reaches the LAN lights within
 * 50 ms at p99 with no delay, a delayed change fires within ±20 ms of its target). Prints figures,
 * asserts nothing; exits non-zero only when the set-up fails. `npm run bench:companion -w @flaglight/bench`.
 *
 * A demo server of its own (ephemeral ports, 127.0.0.1) with its LAN simulator's 6 virtual LIFX
 * bulbs; an account made through the API; the companion (the built Linux executable when there is
 * one, else the sources under tsx) linked by approving its code with the account's token. This
 * process follows the account's event stream too, on the same machine, so it sees each flag event
 * when the companion does. The Saudi 2021 race is replayed from minute 203.9 at speed 20 (a double
 * yellow, four VSCs and their endings, the greens after them) twice: with the delay at 0, then at 3 s.
 *
 * - Delay 0: offset = the first packet a bulb received for the change (its receive log, the
 *   change's look: a SetColor at full brightness in the flag's hue) − the event's arrival here,
 *   and − its `emittedAt`.
 * - Delay 3 s: offset = that first packet − (arrival here + 3000 ms).
 * - The companion's RSS (VmRSS) and CPU (utime + stime) read from /proc every second.
 * - Start-up: spawn → first 200 from its /api/status, and the LAN commands per flag per bulb.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createLightProgram } from '@flaglight/core';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXECUTABLE = path.join(REPO_ROOT, 'apps/companion/dist/flaglight-companion-linux-x64');
const COMPANION_SOURCES = path.join(REPO_ROOT, 'apps/companion/src/main.ts');
const FIXTURE = '2021-saudi-arabia-race';
/** Green, 9 s of race before a double yellow; VSCs and greens follow until minute 227.3. */
const START_MINUTES = 203.9;
const SPEED = 20;
/** 24 race minutes at speed 20 (to minute ~227.9). */
const RACE_MS = 72_000;
const DELAYED_SECONDS = 3;
const WINDOW_MS = 20;
/** The whole run stops here, whatever it is doing. */
const DEADLINE_MS = 240_000;
/** A packet this long before the change's target still counts as the change's (clocks are shared). */
const EARLY_SLACK_MS = 300;
const SET_TYPES = new Set([
  'LightSetColor',
  'LightSetWaveform',
  'LightSetWaveformOptional',
  'LightSetPower',
  'SetPower',
]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class SetupError extends Error {}

// ---------------------------------------------------------------------------------------------
// Processes: each in its own process group, so a kill reaches everything it started.

const children = new Set<ChildProcess>();
const tmpDirs: string[] = [];
let diagnostics = '';

function track(child: ChildProcess, label: string, keepOutput: boolean): ChildProcess {
  children.add(child);
  child.on('exit', () => children.delete(child));
  const keep = (chunk: Buffer) => {
    if (!keepOutput) return;
    diagnostics = (diagnostics + chunk.toString()).slice(-6_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => (diagnostics += `\n${label}: ${error.message}`));
  return child;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  await Promise.race([exited, sleep(3_000)]);
  signalGroup(child, 'SIGKILL');
  await Promise.race([exited, sleep(1_000)]);
}

async function cleanUp(): Promise<void> {
  await Promise.all([...children].map(stop));
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  ms: number,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + ms;
  let last = '';
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > end) throw new SetupError(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// The server's API.

async function call<T>(
  base: string,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new SetupError(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

async function signUp(base: string): Promise<string> {
  const config = await call<{ turnstile: { siteKey: string; tokenUrl?: string } }>(
    base,
    'GET',
    '/api/config',
  );
  const bot = await call<{ token: string }>(
    base,
    'POST',
    config.turnstile.tokenUrl ?? '/sims/turnstile/token',
    { sitekey: config.turnstile.siteKey, action: 'signup' },
  );
  const session = await call<{ token: string }>(base, 'POST', '/auth/signup', {
    email: `bench.companion.${Date.now().toString(36)}.${process.pid}@example.com`,
    password: 'Checkered1!',
    plan: 'trial',
    turnstileToken: bot.token,
  });
  return session.token;
}

interface PreferencesDocument {
  version: number;
  preferences: { delay: { enabled: boolean; seconds: number } } & Record<string, unknown>;
}

async function setDelay(base: string, token: string, seconds: number): Promise<void> {
  const current = await call<PreferencesDocument>(base, 'GET', '/api/me/preferences', undefined, token);
  await call(
    base,
    'PUT',
    '/api/me/preferences',
    {
      version: current.version,
      preferences: { ...current.preferences, delay: { enabled: true, seconds } },
    },
    token,
  );
}

/**
 * Places the race at `positionMinutes` under the session key the server already follows: its dates are
 * the wall clock, so the server takes the replayed messages as new, and no client has to move to
 * another session (the server looks the live session up every 30 s, the companion as often).
 */
async function setReplay(
  base: string,
  sessionKey: number,
  positionMinutes: number,
  speed: number,
): Promise<void> {
  await call(base, 'PUT', '/sims/openf1/_control/replays', {
    replays: [{ fixture: FIXTURE, sessionKey, positionMinutes, speed }],
  });
}

async function setSpeed(base: string, speed: number): Promise<void> {
  await call(base, 'POST', '/sims/openf1/_control/speed', { speed });
}

interface Received {
  at: number;
  type: string;
  source: number;
  sequence: number;
  message: { color?: { hue: number; saturation: number; brightness: number } };
}

interface Bulb {
  id: string;
}

async function bulbIds(base: string): Promise<string[]> {
  const state = await call<{ lifx: { bulbs: Bulb[] } }>(base, 'GET', '/sims/lan/state');
  return state.lifx.bulbs.map((b) => b.id);
}

async function receiveLog(base: string, id: string): Promise<Received[]> {
  return (
    await call<{ received: Received[] }>(base, 'GET', `/sims/lan/_control/lifx/${encodeURIComponent(id)}/log`)
  ).received;
}

// ---------------------------------------------------------------------------------------------
// The account's event stream, followed here as a client does.

interface Arrival {
  id: number;
  sessionKey: number;
  state: string;
  emittedAt: number;
  arrivedAt: number;
  /** The first flag of a connection: the current state, not a change. */
  snapshot: boolean;
}

function followStream(base: string, token: string) {
  const arrivals: Arrival[] = [];
  let closed = false;
  let request: http.ClientRequest | null = null;
  let retrying = false;

  const retry = () => {
    if (closed || retrying) return;
    retrying = true;
    request?.destroy();
    setTimeout(() => {
      retrying = false;
      void connect();
    }, 300);
  };

  const onBlock = (block: string, arrivedAt: number, first: { value: boolean }) => {
    if (!/^event: flag$/m.test(block)) return;
    const data = /^data: (.*)$/m.exec(block)?.[1];
    const id = Number(/^id: (\d+)$/m.exec(block)?.[1]);
    if (!data) return;
    const flag = JSON.parse(data) as { sessionKey: number; state: string; emittedAt: string };
    arrivals.push({
      id,
      sessionKey: flag.sessionKey,
      state: flag.state,
      emittedAt: Date.parse(flag.emittedAt),
      arrivedAt,
      snapshot: first.value,
    });
    first.value = false;
  };

  const connect = async () => {
    if (closed) return;
    try {
      const { ticket } = await call<{ ticket: string }>(base, 'POST', '/api/live/ticket', undefined, token);
      const first = { value: true };
      request = http.get(
        `${base}/api/live/events?ticket=${encodeURIComponent(ticket)}`,
        { headers: { accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            retry();
            return;
          }
          response.setEncoding('utf8');
          let buffer = '';
          response.on('data', (chunk: string) => {
            const arrivedAt = Date.now();
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              onBlock(buffer.slice(0, end), arrivedAt, first);
              buffer = buffer.slice(end + 2);
            }
          });
          response.on('end', retry);
          response.on('error', retry);
        },
      );
      request.on('error', retry);
    } catch {
      retry();
    }
  };

  void connect();
  return {
    arrivals,
    sessionKey: () => arrivals.at(-1)?.sessionKey ?? null,
    close() {
      closed = true;
      request?.destroy();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The companion.

interface CompanionStatus {
  linked: boolean;
  userCode?: string;
  stream: { state: string };
  session: { sessionKey: number } | null;
  delayMs: number;
  lights: { provider: string; reachable: boolean; driven: boolean }[];
}

async function companionStatus(port: number): Promise<CompanionStatus> {
  const response = await fetch(`http://127.0.0.1:${port}/api/status`);
  if (!response.ok) throw new Error(`status ${response.status}`);
  return (await response.json()) as CompanionStatus;
}

interface Launch {
  kind: 'executable' | 'sources';
  command: string;
  args: string[];
}

function launchers(binDir: string): { main: Launch; sources: Launch } {
  const sources: Launch = {
    kind: 'sources',
    command: process.execPath,
    args: ['--import', 'tsx', COMPANION_SOURCES],
  };
  if (!existsSync(EXECUTABLE)) return { main: sources, sources };
  // A copy, so a rebuild by someone else during the run neither fails on a busy file nor changes it.
  const copy = path.join(binDir, path.basename(EXECUTABLE));
  copyFileSync(EXECUTABLE, copy);
  chmodSync(copy, 0o755);
  return { main: { kind: 'executable', command: copy, args: [] }, sources };
}

/** Spawns a companion and times spawn → the first 200 from its /api/status. */
async function startCompanion(
  launch: Launch,
  base: string,
  keepOutput: boolean,
): Promise<{ child: ChildProcess; port: number; startupMs: number }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flaglight-bench-companion-'));
  tmpDirs.push(dataDir);
  const started = performance.now();
  const child = track(
    spawn(
      launch.command,
      [
        ...launch.args,
        'run',
        '--demo',
        '--server',
        base,
        '--no-browser',
        '--data-dir',
        dataDir,
        '--port',
        String(port),
        '--name',
        'Bench Companion',
      ],
      { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    ),
    'companion',
    keepOutput,
  );
  await waitFor(
    `the companion's status page (${launch.kind})`,
    async () => {
      if (child.exitCode !== null) throw new SetupError(`the companion exited with ${child.exitCode}`);
      return (await fetch(`http://127.0.0.1:${port}/api/status`)).status === 200;
    },
    30_000,
    10,
  );
  return { child, port, startupMs: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// /proc sampling.

interface Sample {
  at: number;
  rssKb: number;
  ticks: number;
}

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function sampleProc(pid: number): Sample | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { at: performance.now(), rssKb, ticks };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Figures.

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function row(name: string, values: number[], withinMs?: number): void {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(1).padStart(7);
  const within =
    withinMs === undefined
      ? ''
      : `  within ±${withinMs} ms ${
          sorted.length
            ? ((100 * sorted.filter((v) => Math.abs(v) <= withinMs).length) / sorted.length).toFixed(0)
            : '–'
        }%`;
  console.log(
    `  ${name.padEnd(54)} n=${String(sorted.length).padStart(3)}  p50 ${f(quantile(sorted, 0.5))} ms  p99 ${f(
      quantile(sorted, 0.99),
    )} ms  max ${f(sorted.at(-1) ?? NaN)} ms${within}`,
  );
}

/** The look of a flag's first step as LIFX HSBK: what its first packet (a SetColor) carries. */
function firstLook(state: string): { hue: number; saturation: number } | null {
  const program = createLightProgram(state);
  if (!program.ok) return null;
  const step = program.program.steps[0];
  if (!step || step.kind === 'restore' || step.color.off) return null;
  return { hue: Math.round(((step.color.hue % 360) / 360) * 65535), saturation: step.color.saturation };
}

function isLook(packet: Received, look: { hue: number; saturation: number }): boolean {
  const color = packet.message.color;
  if (packet.type !== 'LightSetColor' || !color || color.brightness < 60_000) return false;
  if (look.saturation === 0) return color.saturation < 1_000;
  const distance = Math.abs(color.hue - look.hue);
  return color.saturation > 30_000 && Math.min(distance, 65_536 - distance) < 800;
}

interface Change {
  arrival: Arrival;
  targetMs: number;
  /** Per bulb: the first packet of the change's look, or null when none came. */
  first: Map<string, number | null>;
  /** Per bulb: commands (set messages) from the change's window to the next one's. */
  commands: Map<string, Map<string, number>>;
}

interface PhaseResult {
  delayMs: number;
  changes: Change[];
  repeats: number;
  otherPackets: number;
  bulbs: number;
  spanMs: number;
  truncated: boolean;
}

function attribute(
  arrivals: Arrival[],
  previousState: string | null,
  delayMs: number,
  logs: Map<string, Received[]>,
  endMs: number,
): { changes: Change[]; repeats: number } {
  const changes: Change[] = [];
  let repeats = 0;
  let previous = previousState;
  for (const arrival of arrivals) {
    if (arrival.snapshot || arrival.state === previous) {
      if (!arrival.snapshot) repeats += 1;
      previous = arrival.state;
      continue;
    }
    previous = arrival.state;
    changes.push({ arrival, targetMs: arrival.arrivedAt + delayMs, first: new Map(), commands: new Map() });
  }
  changes.forEach((change, i) => {
    const from = change.targetMs - EARLY_SLACK_MS;
    const next = changes[i + 1];
    const to = next ? next.targetMs - EARLY_SLACK_MS : endMs;
    const look = firstLook(change.arrival.state);
    for (const [id, log] of logs) {
      const inWindow = log.filter((p) => p.at >= from && p.at < to);
      const first = look
        ? inWindow.find((p) => isLook(p, look))
        : inWindow.find((p) => SET_TYPES.has(p.type));
      change.first.set(id, first ? first.at : null);
      const counts = new Map<string, number>();
      for (const p of inWindow) if (SET_TYPES.has(p.type)) counts.set(p.type, (counts.get(p.type) ?? 0) + 1);
      change.commands.set(id, counts);
    }
  });
  return { changes, repeats };
}

function printTiming(result: PhaseResult): void {
  const vsArrival: number[] = [];
  const vsEmitted: number[] = [];
  const firstBulb: number[] = [];
  const lastBulb: number[] = [];
  const transit: number[] = [];
  let missed = 0;
  for (const change of result.changes) {
    transit.push(change.arrival.arrivedAt - change.arrival.emittedAt);
    const times = [...change.first.values()].filter((t): t is number => t !== null);
    missed += change.first.size - times.length;
    for (const t of times) {
      vsArrival.push(t - change.targetMs);
      vsEmitted.push(t - (change.arrival.emittedAt + result.delayMs));
    }
    if (times.length) {
      firstBulb.push(Math.min(...times) - change.targetMs);
      lastBulb.push(Math.max(...times) - change.targetMs);
    }
  }
  const target = result.delayMs === 0 ? '' : ` + ${result.delayMs} ms`;
  const within = result.delayMs === 0 ? undefined : WINDOW_MS;
  console.log(
    `  ${result.changes.length} flag changes (${result.changes.map((c) => c.arrival.state).join(' → ')}), ` +
      `${result.bulbs} bulbs; ${result.repeats} same-state events not counted; ${missed} bulb×change without a packet`,
  );
  row('event transit: bench arrival − emittedAt', transit);
  row(`each bulb's first packet − (bench arrival${target})`, vsArrival, within);
  row(`each bulb's first packet − (emittedAt${target})`, vsEmitted, within);
  row(`first bulb − (bench arrival${target})`, firstBulb, within);
  row(`last bulb − (bench arrival${target})`, lastBulb, within);
  if (result.truncated)
    console.log('  note: a receive log was full (1000 entries): early packets may be missing');
}

function printCommands(results: PhaseResult[]): void {
  const byFlag = new Map<string, { bulbChanges: number; types: Map<string, number> }>();
  for (const result of results)
    for (const change of result.changes) {
      const entry = byFlag.get(change.arrival.state) ?? { bulbChanges: 0, types: new Map<string, number>() };
      for (const counts of change.commands.values()) {
        entry.bulbChanges += 1;
        for (const [type, n] of counts) entry.types.set(type, (entry.types.get(type) ?? 0) + n);
      }
      byFlag.set(change.arrival.state, entry);
    }
  for (const [flag, { bulbChanges, types }] of byFlag) {
    const total = [...types.values()].reduce((a, b) => a + b, 0);
    const parts = [...types].map(([type, n]) => `${type} ${(n / bulbChanges).toFixed(1)}`).join(', ');
    console.log(
      `  ${flag.padEnd(11)} ${(total / bulbChanges).toFixed(1).padStart(5)} per bulb (${bulbChanges} bulb×changes: ${parts})`,
    );
  }
  const other = results.reduce((a, r) => a + r.otherPackets, 0);
  const bulbMinutes = results.reduce((a, r) => a + (r.bulbs * r.spanMs) / 60_000, 0);
  console.log(
    `  other packets (reads, probes): ${(other / Math.max(bulbMinutes, 1e-9)).toFixed(1)} per bulb per minute`,
  );
}

// ---------------------------------------------------------------------------------------------

const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
};

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const serverData = mkdtempSync(path.join(tmpdir(), 'flaglight-bench-server-'));
  const binDir = mkdtempSync(path.join(tmpdir(), 'flaglight-bench-bin-'));
  tmpDirs.push(serverData, binDir);
  const [port, lifxPort, huePort] = await Promise.all([freePort(), freePort(), freePort()]);
  const base = `http://127.0.0.1:${port}`;
  const server = track(
    spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      detached: true,
      env: {
        ...process.env,
        PORT: String(port),
        FLAGLIGHT_MODE: 'demo',
        DATA_DIR: serverData,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: base,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        DEMO_LIFX_LAN_PORT: String(lifxPort),
        DEMO_HUE_BRIDGE_PORT: String(huePort),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
    'server',
    true,
  );
  await waitFor(
    'the demo server',
    async () => {
      if (server.exitCode !== null) throw new SetupError(`the server exited with ${server.exitCode}`);
      return (await fetch(`${base}/api/health`)).ok;
    },
    60_000,
  );

  const token = await signUp(base);
  await setDelay(base, token, 0);
  // The demo's live session; the race is replayed under its key, paused at the start of the stretch
  // (a paused replay is placed at speed 1, then stopped).
  const { sessionKey } = await waitFor(
    'a live session on the demo server',
    () => call<{ sessionKey: number }>(base, 'GET', '/api/live/state', undefined, token),
    30_000,
    1_000,
  );
  await setReplay(base, sessionKey, START_MINUTES, 1);
  await setSpeed(base, 0);
  const bulbs = await bulbIds(base);

  const { main: launch, sources } = launchers(binDir);
  const companion = await startCompanion(launch, base, true);
  const startups = [companion.startupMs];
  const pid = companion.child.pid;
  if (pid === undefined) throw new SetupError('the companion has no pid');

  const code = await waitFor(
    'the link code',
    async () => (await companionStatus(companion.port)).userCode,
    30_000,
    200,
  );
  await call(base, 'POST', '/api/device/approve', { code }, token);
  await waitFor(
    'the companion to follow the race with every bulb',
    async () => {
      const s = await companionStatus(companion.port);
      return (
        s.linked &&
        s.stream.state === 'following' &&
        s.lights.filter((l) => l.provider === 'lifx_lan' && l.reachable && l.driven).length >= bulbs.length
      );
    },
    45_000,
    200,
  );

  const stream = followStream(base, token);
  const ticksPerSecond = clockTicks();
  const samples: Sample[] = [];
  const sampler = setInterval(() => {
    const sample = sampleProc(pid);
    if (sample) samples.push(sample);
  }, 1_000);
  const first = sampleProc(pid);
  if (first) samples.push(first);

  const results: PhaseResult[] = [];
  try {
    for (const delaySeconds of [0, DELAYED_SECONDS]) {
      const delayMs = delaySeconds * 1000;
      // The stretch again from its start, paused, and the delay for this run.
      await setReplay(base, sessionKey, START_MINUTES, 1);
      await setSpeed(base, 0);
      await setDelay(base, token, delaySeconds);
      await waitFor(
        'this process to follow the session',
        async () => stream.sessionKey() === sessionKey,
        30_000,
      );
      await waitFor(
        'the companion to follow the session with the delay',
        async () => {
          const s = await companionStatus(companion.port);
          return (
            s.stream.state === 'following' && s.session?.sessionKey === sessionKey && s.delayMs === delayMs
          );
        },
        30_000,
        200,
      );
      // The snapshot's look goes out first (after the delay).
      await sleep(delayMs + 1_500);
      const start = Date.now();
      await setSpeed(base, SPEED);
      await sleep(RACE_MS);
      await setSpeed(base, 0);
      const stopAt = Date.now();
      await sleep(delayMs + 5_000);
      const end = Date.now();
      const logs = new Map<string, Received[]>();
      let truncated = false;
      let otherPackets = 0;
      for (const id of bulbs) {
        const log = await receiveLog(base, id);
        if (log.length >= 1000 && (log[0]?.at ?? 0) > start) truncated = true;
        const inPhase = log.filter((p) => p.at >= start && p.at <= end);
        otherPackets += inPhase.filter((p) => !SET_TYPES.has(p.type)).length;
        logs.set(id, inPhase);
      }
      const ours = stream.arrivals.filter((a) => a.sessionKey === sessionKey);
      const previousState = ours.filter((a) => a.arrivedAt < start).at(-1)?.state ?? null;
      const arrivals = ours.filter((a) => a.arrivedAt >= start && a.arrivedAt <= stopAt);
      const { changes, repeats } = attribute(arrivals, previousState, delayMs, logs, end);
      results.push({
        delayMs,
        changes,
        repeats,
        otherPackets,
        bulbs: bulbs.length,
        spanMs: end - start,
        truncated,
      });
    }
  } finally {
    clearInterval(sampler);
    stream.close();
  }
  const last = sampleProc(pid);
  if (last) samples.push(last);

  // Start-up again: two more of what was measured, two of the sources when that was the executable.
  await stop(companion.child);
  for (let i = 0; i < 2; i += 1) {
    const again = await startCompanion(launch, base, false);
    startups.push(again.startupMs);
    await stop(again.child);
  }
  const sourceStartups: number[] = [];
  if (launch.kind === 'executable')
    for (let i = 0; i < 2; i += 1) {
      const again = await startCompanion(sources, base, false);
      sourceStartups.push(again.startupMs);
      await stop(again.child);
    }

  // ---- Print.
  const measured =
    launch.kind === 'executable'
      ? `the built executable (${path.relative(REPO_ROOT, EXECUTABLE)}, run from a copy)`
      : 'the sources under tsx (no built executable)';
  console.log(`Companion timing and footprint (DESIGN §7). Measured: ${measured}.`);
  console.log(`Load average (1, 5, 15 min): ${loadBefore} at the start, ${loadAverage()} at the end.`);
  console.log(
    `Race: ${FIXTURE} from minute ${START_MINUTES} at speed ${SPEED} for ${RACE_MS / 1000} s per run; 127.0.0.1, demo LAN simulator.`,
  );
  const [zero, delayed] = results;
  if (zero) {
    console.log(`\n1. Flag event → first UDP packet at a virtual bulb, delay 0 (target p99 ≤ 50 ms)`);
    printTiming(zero);
  }
  if (delayed) {
    console.log(
      `\n2. Delayed change vs its target, delay ${DELAYED_SECONDS} s (offset = first packet − (arrival + ${DELAYED_SECONDS * 1000} ms); target ±${WINDOW_MS} ms)`,
    );
    printTiming(delayed);
  }
  console.log(`\n3. Companion memory and CPU while following (${samples.length} samples, 1 s apart)`);
  if (samples.length >= 2) {
    const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
    const firstSample = samples[0]!;
    const lastSample = samples.at(-1)!;
    const cpu = (a: Sample, b: Sample) =>
      (100 * (b.ticks - a.ticks)) / ticksPerSecond / ((b.at - a.at) / 1000);
    const perSecond = samples.slice(1).map((s, i) => cpu(samples[i]!, s));
    console.log(
      `  RSS start ${mb(firstSample.rssKb)}  max ${mb(Math.max(...samples.map((s) => s.rssKb)))}  end ${mb(lastSample.rssKb)}`,
    );
    console.log(
      `  CPU mean ${cpu(firstSample, lastSample).toFixed(2)}% of one core over ${((lastSample.at - firstSample.at) / 1000).toFixed(0)} s` +
        `  (busiest second ${Math.max(...perSecond).toFixed(1)}%; ${ticksPerSecond} ticks/s)`,
    );
  }
  console.log(`\n4. Start-up (spawn → first 200 from /api/status) and LAN commands per flag`);
  const ms = (values: number[]) => values.map((v) => `${v.toFixed(0)} ms`).join(', ');
  console.log(`  ${launch.kind}: ${ms(startups)}`);
  if (sourceStartups.length) console.log(`  sources under tsx, for comparison: ${ms(sourceStartups)}`);
  printCommands(results);
}

const deadline = setTimeout(() => {
  console.error(`bench:companion ran over ${DEADLINE_MS / 1000} s: stopping.`);
  void cleanUp().finally(() => process.exit(1));
}, DEADLINE_MS);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.error(`bench:companion: ${signal}, stopping what it started.`);
    void cleanUp().finally(() => process.exit(130));
  });

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(`bench:companion set-up failed: ${error instanceof Error ? error.message : String(error)}`);
  if (diagnostics) console.error(`last output of the server and companion:\n${diagnostics}`);
} finally {
  clearTimeout(deadline);
  await cleanUp();
}
process.exit(failed ? 1 : 0);
