/**
 * The desktop companion's memory under LAN-side attack ("Companion memory stays under 100 MB through
 * the whole fault suite"). Prints figures, asserts nothing; exits non-zero only when the set-up fails.
 * `npm run bench:lan-faults -w @flaglight/bench`. A demo server and a companion with `--demo`
 * (linked to a fresh account; 127.0.0.1 only), run from its sources under tsx, then as the esbuild
 * bundle the executable is made of (scripts/package.mjs's options) under node. VmRSS of its pid every
 * 200 ms, VmHWM after each phase. Phases: 0 idle; 1 10,000 forged Govee scan replies at its listen port
 * (with `--demo` the simulator's reply port, so one instance serves), with rescans and test flags;
 * 2 a fake Nanoleaf streaming `POST /api/v1/new` without end (≤ 600 MB), paired twice through the
 * local bridge; 3 one that never answers; 4 one that sends headers, then a byte a second (3 and 4
 * last the pairing's own 60 s deadline); 5 idle again.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { call, signUp } from './shared/api.js';
import { startDemoServer } from './shared/demo-server.js';
import { messageOf } from './shared/errors.js';
import { freePort } from './shared/ports.js';
import { onCleanUp, stop, tempDir, track } from './shared/processes.js';
import { REPO_ROOT } from './shared/repo.js';
import { runBench } from './shared/run-bench.js';
import { sleep } from './shared/time.js';
import { waitFor } from './shared/wait-for.js';

const COMPANION_ROOT = path.join(REPO_ROOT, 'apps/companion');
const NODE = process.execPath;
const SAMPLE_MS = 200;
const IDLE_MS = 10_000;
const FORGED = 10_000;
/** The blast is paced over this long (a burst would only overflow the socket's receive buffer). */
const BLAST_MS = 12_000;
const RESCAN_EVERY_MS = 2_500;
const SETTLE_MS = 3_000;
const ENDLESS_TAIL_MS = 8_000;
const ENDLESS_CAP_BYTES = 600 * 1024 * 1024;
const ENDLESS_CHUNK = Buffer.alloc(64 * 1024, 0x20);
const CLAIM_MB = 100;
const DEADLINE_MS = 720_000;

const mb = (kb: number | undefined) => ((kb ?? NaN) / 1024).toFixed(1);

/** A TCP server of this process on 127.0.0.1, closed with every socket it accepted. */
async function listenTcp(server: net.Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanUp(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as net.AddressInfo).port;
}

interface CompanionStatus {
  linked: boolean;
  userCode?: string;
  stream: { state: string };
  lights: { provider: string; reachable: boolean; driven: boolean }[];
  govee: { devices: number };
  nanoleaf: { devices: { paired: boolean }[] };
}

/** The local bridge as its own status page asks it (its Host and Origin): GET, or POST with a body. */
async function bridge(port: number, route: string, body?: unknown) {
  const t0 = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  const answer = JSON.parse(text) as { error?: string };
  return { status: response.status, error: answer.error ?? 'ok', ms: performance.now() - t0, text };
}

async function companionStatus(port: number): Promise<CompanionStatus & { text: string }> {
  const { text, status } = await bridge(port, '/api/status');
  if (status !== 200) throw new Error(`status ${status}`);
  return { ...(JSON.parse(text) as CompanionStatus), text };
}

const pairAt = (bridgePort: number, port: number) =>
  bridge(bridgePort, '/api/nanoleaf/pair', { address: `127.0.0.1:${port}` });

function readMemory(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return null;
  }
}

const sample = (pid: number, samples: number[]) =>
  void samples.push(...[readMemory(pid)?.rssKb ?? NaN].filter(Number.isFinite));

async function phase(pid: number, samples: number[], name: string, run: () => Promise<string>) {
  const from = samples.length;
  const t0 = performance.now();
  sample(pid, samples);
  const outcome = await run().catch((error: unknown) => `phase failed: ${messageOf(error)}`);
  sample(pid, samples);
  const mine = samples.slice(from);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const rss = `${mb(mine[0])}/${mb(Math.max(...mine))}/${mb(mine.at(-1))} MB (${mine.length} samples; VmHWM so far ${mb(readMemory(pid)?.hwmKb)} MB)`;
  console.log(`${name}, ${seconds} s, RSS start/peak/end ${rss}, ${outcome}`);
}

/** One forged scan reply: every 10th 4–60 KB, every 10th with control characters, every 10th naming 10.x. */
function forgedReply(i: number): { kind: 'oversize' | 'control' | 'otherIp' | 'plain'; datagram: Buffer } {
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  const id = `FA:KE:${hex(i >> 8)}:${hex(i & 0xff)}:00:00:00:01`;
  if (i % 10 === 0) {
    const datagram = Buffer.alloc(4_097 + Math.floor(Math.random() * (60 * 1024 - 4_097)), 0x41);
    datagram.write(`{"msg":{"cmd":"scan","data":{"ip":"127.0.0.1","device":"${id}","sku":"`);
    return { kind: 'oversize', datagram };
  }
  const kind = i % 10 === 1 ? 'control' : i % 10 === 2 ? 'otherIp' : 'plain';
  const data = {
    ip: kind === 'otherIp' ? `10.0.${(i >> 8) & 0xff}.${i & 0xff}` : '127.0.0.1',
    device: kind === 'control' ? `${id}\u0000\u001b[31m\r\n\u202e\u0007` : id,
    sku: kind === 'control' ? 'H6\u0008199\u2028\u200b' : 'H6199',
  };
  return { kind, datagram: Buffer.from(JSON.stringify({ msg: { cmd: 'scan', data } })) };
}

async function forgeGovee(replyPort: number, bridgePort: number): Promise<string> {
  const socket = createSocket('udp4');
  onCleanUp(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  let commands = 0;
  socket.on('message', () => (commands += 1));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const before = await companionStatus(bridgePort);
  const counts = { oversize: 0, control: 0, otherIp: 0, plain: 0, sendErrors: 0, rescans: 0 };
  let blasting = true;
  const rescanning = (async () => {
    for (; blasting; await sleep(RESCAN_EVERY_MS))
      await bridge(bridgePort, '/api/lights/rescan', {}).then(() => (counts.rescans += 1), messageOf);
  })();
  const t0 = performance.now();
  for (let i = 0; i < FORGED; i += 1) {
    const { kind, datagram } = forgedReply(i);
    counts[kind] += 1;
    socket.send(datagram, replyPort, '127.0.0.1', (error) => void (error && (counts.sendErrors += 1)));
    // Flags while forged devices are known: commands to them would go to this socket.
    if (i === 4_000 || i === 8_000)
      void bridge(bridgePort, '/api/test', { state: i === 4_000 ? 'yellow' : 'green' }).catch(messageOf);
    const due = ((i + 1) * BLAST_MS) / FORGED - (performance.now() - t0);
    if (due > 1) await sleep(due);
  }
  blasting = false;
  await rescanning;
  await sleep(SETTLE_MS);
  const after = await companionStatus(bridgePort);
  const goveeDriven = after.lights.filter((l) => l.provider === 'govee_lan' && l.driven).length;
  // JSON escapes C0 controls as \u00XX: any left in the status page's data would show here.
  const escapes = (after.text.match(/\\u00[01][0-9a-f]/gi) ?? []).length;
  const { oversize, control, otherIp, plain, sendErrors, rescans } = counts;
  return `sent ${FORGED} in ${BLAST_MS / 1000} s (${oversize} of 4–60 KB, ${control} with control characters, ${otherIp} naming 10.x, ${plain} plain; ${sendErrors} send errors), ${rescans} rescans; Govee devices ${before.govee.devices} → ${after.govee.devices} (${goveeDriven} driven), lights listed ${before.lights.length} → ${after.lights.length}; ${commands} datagrams back to the forger; control-character escapes in /api/status: ${escapes}`;
}

/** Phase 2: `POST /api/v1/new` answered 200 with a body written until the client hangs up (≤ 600 MB). */
async function endlessNanoleaf(bridgePort: number): Promise<string> {
  const written: number[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    if (request.method !== 'POST' || request.url !== '/api/v1/new') return void response.writeHead(404).end();
    const index = written.push(0) - 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"auth_token":"');
    const pump = () => {
      while (!response.destroyed && (written[index] ?? 0) < ENDLESS_CAP_BYTES) {
        written[index] = (written[index] ?? 0) + ENDLESS_CHUNK.length;
        if (!response.write(ENDLESS_CHUNK)) return void response.once('drain', pump);
      }
      if (!response.destroyed) response.end();
    };
    pump();
  });
  const port = await listenTcp(server);
  const first = await pairAt(bridgePort, port);
  const second = await pairAt(bridgePort, port);
  await sleep(ENDLESS_TAIL_MS);
  const kb = written.map((bytes) => `${(bytes / 1024).toFixed(0)} KB`).join(', ');
  const slot = second.error.includes('already waiting') ? 'still taken' : 'freed';
  return (
    `pair #1 → ${first.status} "${first.error}" in ${first.ms.toFixed(0)} ms; pair #2 → ${second.status} ` +
    `"${second.error}" in ${second.ms.toFixed(0)} ms (pairing slot ${slot}); the fake wrote ${kb} before the hang-up`
  );
}

/** Phases 3 and 4: one pairing with a fake; its connections counted. */
async function pairWithFake(bridgePort: number, fake: (socket: net.Socket) => void): Promise<string> {
  let connections = 0;
  const port = await listenTcp(net.createServer((socket) => ((connections += 1), fake(socket))));
  const result = await pairAt(bridgePort, port);
  return `pair → ${result.status} "${result.error}" after ${(result.ms / 1000).toFixed(1)} s; ${connections} connections to the fake`;
}

/** Headers (a body of 100,000 bytes announced), then one byte a second. */
function dribble(socket: net.Socket): void {
  let timer: NodeJS.Timeout | null = null;
  socket.once('data', () => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n');
    timer = setInterval(() => socket.write(' '), 1_000);
  });
  socket.on('close', () => timer && clearInterval(timer));
}

type Launch = { label: string; command: string; args: string[] };

/** The executable's JavaScript: the bundle apps/companion/scripts/package.mjs makes, in a temp folder. */
async function bundleCompanion(): Promise<Launch> {
  const { build } = await import('esbuild');
  const outfile = path.join(tempDir('lanfaults-bundle'), 'companion.cjs');
  await build({
    entryPoints: [path.join(COMPANION_ROOT, 'src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    define: {
      __APP_VERSION__: JSON.stringify('bench'),
      'import.meta.url': 'importMetaUrl',
      'process.env.WS_NO_BUFFER_UTIL': '"1"',
      'process.env.WS_NO_UTF_8_VALIDATE': '"1"',
    },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  return { label: 'esbuild bundle (the executable’s code)', command: NODE, args: [outfile] };
}

type Lan = { lifx: { bulbs: unknown[] }; govee: { replyPort: number }; nanoleaf: { devices: unknown[] } };

async function runSuite(launch: Launch, base: string, token: string, lan: Lan): Promise<void> {
  const bridgePort = await freePort();
  const flags = [
    '--server',
    base,
    '--port',
    String(bridgePort),
    '--data-dir',
    tempDir('lanfaults-companion'),
  ];
  const args = [...launch.args, 'run', '--demo', '--no-browser', ...flags];
  const options: SpawnOptions = { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] };
  const companion = track(spawn(launch.command, args, options), 'companion');
  const pid = companion.pid;
  if (pid === undefined) throw new Error('the companion has no pid');
  const samples: number[] = [];
  const sampler = setInterval(() => sample(pid, samples), SAMPLE_MS);
  onCleanUp(() => clearInterval(sampler));
  try {
    const code = await waitFor('the link code', async () => {
      if (companion.exitCode !== null) throw new Error(`the companion exited with ${companion.exitCode}`);
      return (await companionStatus(bridgePort)).userCode;
    });
    await call(base, 'POST', '/api/device/approve', { code }, token);
    const ready = await waitFor('the companion linked, with the demo lights', async () => {
      const s = await companionStatus(bridgePort);
      const bulbs = s.lights.filter((l) => l.provider === 'lifx_lan' && l.reachable).length;
      const paired = s.nanoleaf.devices.filter((d) => d.paired).length;
      return s.linked && bulbs >= lan.lifx.bulbs.length && paired >= lan.nanoleaf.devices.length && s;
    });
    const readyAt = samples.length;
    console.log(`\n== ${launch.label} (pid ${pid})`);
    const lights = `${ready.lights.length} lights (${lan.lifx.bulbs.length} LIFX, ${lan.nanoleaf.devices.length} Nanoleaf paired, ${ready.govee.devices} Govee)`;
    const setUp = `RSS ${mb(samples[0])} MB at the first sample, ${mb(samples.at(-1))} MB when ready; stream ${ready.stream.state}`;
    console.log(`set-up: ${setUp}; ${lights}`);
    console.log('phase, duration, RSS start/peak/end MB, outcome');
    const run = (name: string, body: () => Promise<string>) => phase(pid, samples, name, body);
    await run('0 idle baseline', async () => {
      await sleep(IDLE_MS);
      return `stream ${(await companionStatus(bridgePort)).stream.state}`;
    });
    await run('1 forged Govee scan replies', () => forgeGovee(lan.govee.replyPort, bridgePort));
    await run('2 Nanoleaf endless pairing body', () => endlessNanoleaf(bridgePort));
    await run('3 Nanoleaf never answers', () => pairWithFake(bridgePort, () => undefined));
    await run('4 Nanoleaf headers then 1 byte/s', () => pairWithFake(bridgePort, dribble));
    await run('5 idle after', async () => {
      await sleep(IDLE_MS);
      const s = await companionStatus(bridgePort);
      const bulbs = s.lights.filter((l) => l.provider === 'lifx_lan' && l.reachable).length;
      return `still serving: stream ${s.stream.state}, ${bulbs} LIFX reachable, ${s.lights.length} lights listed`;
    });
    const over = (from: number) => samples.slice(from).filter((kb) => kb >= CLAIM_MB * 1024).length;
    const rss = `RSS first ${mb(samples[0])} MB, peak ${mb(Math.max(...samples))} MB, last ${mb(samples.at(-1))} MB; VmHWM ${mb(readMemory(pid)?.hwmKb)} MB`;
    const beyond = `samples ≥ ${CLAIM_MB} MB: ${over(0)} of ${samples.length}, ${over(readyAt)} of ${samples.length - readyAt} from the baseline on`;
    console.log(`whole run: ${samples.length} samples ${SAMPLE_MS} ms apart, ${rss}; ${beyond}`);
  } finally {
    clearInterval(sampler);
    await stop(companion);
  }
}

async function main(): Promise<void> {
  const base = await startDemoServer();
  const lan = await call<Lan>(base, 'GET', '/sims/lan/state');
  const token = await signUp(base, 'lanfaults');
  const heapLimit = v8.getHeapStatistics().heap_size_limit / 1024 / 1024;
  console.log('Companion memory under LAN faults: VmRSS of the companion process itself, from /proc.');
  const nodeOptions = process.env.NODE_OPTIONS ?? 'unset';
  console.log(
    `Node ${process.version}; V8 heap size limit ${heapLimit.toFixed(0)} MB (NODE_OPTIONS ${nodeOptions}; the companion is started without --max-old-space-size), far above the figures: no heap cap holds them down, and only RSS is reported. Govee listen port: the demo's reply port ${lan.govee.replyPort}; everything on 127.0.0.1.`,
  );
  const mainTs = path.join(COMPANION_ROOT, 'src/main.ts');
  const sources: Launch = { label: 'sources under tsx', command: NODE, args: ['--import', 'tsx', mainTs] };
  await runSuite(sources, base, token, lan);
  await runSuite(await bundleCompanion(), base, token, lan);
}

await runBench('bench:lan-faults', DEADLINE_MS, main);
