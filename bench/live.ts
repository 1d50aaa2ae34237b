/**
 * Live engine benchmark (DESIGN §7): upstream requests per minute for 1, 100 and 1,000
 * subscribers; message visible in the simulator → SSE event at N clients (p50, p99); memory per
 * client. Prints figures, asserts nothing. Run: npm run bench:live -w @flaglight/bench [-- 1000 10000]
 * (the stream clients run in forked processes, see stream-clients.ts).
 */
import { execSync, fork } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { MAX_STREAMS_PER_USER } from '@flaglight/contract';
import { DEMO_REPLAY_FIXTURE, startOpenF1Sim } from '@flaglight/sims';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createInProcessBus } from '../apps/server/src/live/bus.js';
import { createSystemTimers } from '../apps/server/src/live/clock.js';
import { createDeviceStreams } from '../apps/server/src/live/device-streams.js';
import { createLiveHub } from '../apps/server/src/live/hub.js';
import { connectMqttPush } from '../apps/server/src/live/push.js';
import { liveRoutes } from '../apps/server/src/live/routes.js';
import { createStreamLimits } from '../apps/server/src/live/stream-limits.js';
import { createTicketStore } from '../apps/server/src/live/tickets.js';
import { createInProcessUserEvents } from '../apps/server/src/live/user-events.js';
import { createOpenF1Client } from '../apps/server/src/openf1/client.js';
import { createFakeTimers } from '../apps/server/test/fake-timers.js';

async function upstreamPerMinute(subscribers: number): Promise<number> {
  const fake = createFakeTimers(Date.parse('2026-09-06T13:00:00Z'));
  const sim = await startOpenF1Sim({
    now: fake.now,
    mqttPort: null,
    replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: 80 }],
  });
  const hub = createLiveHub({
    client: createOpenF1Client({ baseUrl: sim.url, now: fake.now }),
    bus: createInProcessBus(),
    timers: fake,
  });
  for (let i = 0; i < subscribers; i += 1) await hub.subscribe(undefined, { onFlag() {}, onStatus() {} });
  await new Promise((r) => setTimeout(r, 100));
  sim.control.resetRequests();
  for (let t = 0; t < 10 * 60_000; t += 1_000) await fake.advance(1_000);
  const perMinute = sim.control.requestCount() / 10;
  hub.close();
  await sim.close();
  return perMinute;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface ChildReport {
  latencies: number[];
  events: number;
}

/** A process holding stream clients (stream-clients.ts), driven over IPC. */
function forkClients() {
  const child = fork(fileURLToPath(new URL('./stream-clients.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`stream clients exited (${code})`)));
    });
  const ready = next('ready');
  return {
    ready,
    async connect(origin: string, tickets: string[]) {
      const answer = next('connected');
      child.send({ type: 'connect', origin, tickets });
      return (await answer) as { ok: number; failed: number };
    },
    async report(): Promise<ChildReport> {
      const answer = next('report');
      child.send({ type: 'report' });
      return (await answer) as unknown as ChildReport;
    },
    exit() {
      child.send({ type: 'exit' });
    },
  };
}

/** The soft limit on open files of this process (and of the forked clients, which inherit it). */
function openFileLimit(): string {
  try {
    return execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/** Four VSCs in ten race minutes (204.0 → 214.7 of the Saudi race): 8 changes, played at 60×. */
const FAN_OUT_FROM_MINUTES = 204;
const FAN_OUT_SPEED = 60;
const FAN_OUT_PLAY_MS = 12_000;

/**
 * Message visible in the simulator → `flag` event at N stream clients, the clients in other
 * processes and connected before the simulator releases the messages; memory of the server
 * process per connected client.
 */
async function fanOut(clients: number): Promise<void> {
  const sim = await startOpenF1Sim({
    mqttPort: 0,
    replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: FAN_OUT_FROM_MINUTES - 0.2, speed: 1 }],
  });
  sim.control.setSpeed(0); // held until every client listens
  const timers = createSystemTimers();
  const client = createOpenF1Client({
    baseUrl: sim.url,
    username: 'flaglight',
    password: 'flaglight',
    mqttUrl: sim.mqttUrl!,
  });
  const hub = createLiveHub({ client, bus: createInProcessBus(), timers, connectPush: connectMqttPush });
  const tickets = createTicketStore(timers.now);
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The production limits, so their cost is in the figures; every client is another account.
  const limits = createStreamLimits({ perUser: MAX_STREAMS_PER_USER, total: clients + 1 });
  await app.register(liveRoutes, {
    hub,
    tickets,
    timers,
    limits,
    userEvents: createInProcessUserEvents(),
    deviceStreams: createDeviceStreams(),
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1', backlog: 4_096 });

  // Two client processes above 5,000 clients (this machine has 2 cores).
  const processes = clients > 5_000 ? 2 : 1;
  const children = Array.from({ length: processes }, () => forkClients());
  await Promise.all(children.map((c) => c.ready));
  // The follower starts with the first subscriber; let it reach the push before measuring.
  // Subscribed first, so it hears each event just before the streams: when the server had it, and
  // how long writing it to every socket took (the synchronous fan-out loop).
  const atServer: number[] = [];
  const writeAll: number[] = [];
  // The synchronous fan-out loop alone (every listener's write, ended before the first microtask),
  // in wall time and in CPU time of this process: CPU per client is the figure least moved by load.
  const loopMs: number[] = [];
  const loopCpuUs: number[] = [];
  const warm = await hub.subscribe(undefined, {
    onFlag(event) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      atServer.push(Date.now() - Date.parse(event.data.cause.date));
      queueMicrotask(() => {
        loopMs.push(performance.now() - start);
        const used = process.cpuUsage(cpu);
        loopCpuUs.push(used.user + used.system);
      });
      setImmediate(() => writeAll.push(performance.now() - start));
    },
    onStatus() {},
  });
  for (let i = 0; i < 100 && hub.stats()[0]?.transport !== 'push'; i += 1) await sleep(100);

  gc();
  const before = process.memoryUsage();
  const all = await Promise.all(
    Array.from({ length: clients }, async (_, i) => (await tickets.issue({ userId: `bench-${i}` })).ticket),
  );
  const per = Math.ceil(clients / processes);
  const results = await Promise.all(
    children.map((c, i) => c.connect(origin, all.slice(i * per, (i + 1) * per))),
  );
  const connected = results.reduce((sum, r) => sum + r.ok, 0);
  await sleep(500);
  gc();
  const after = process.memoryUsage();

  sim.control.setSpeed(FAN_OUT_SPEED);
  await sleep(FAN_OUT_PLAY_MS);
  sim.control.setSpeed(0);
  await sleep(1_000);
  const reports = await Promise.all(children.map((c) => c.report()));
  const latencies = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
  // The first one is the current state on subscribing.
  const fresh = atServer.slice(1).sort((a, b) => a - b);
  const writes = writeAll.slice(1).sort((a, b) => a - b);
  const loops = loopMs.slice(1).sort((a, b) => a - b);
  const cpuPerClient = loopCpuUs
    .slice(1)
    .map((us) => us / Math.max(1, connected))
    .sort((a, b) => a - b);
  const perChange = connected > 0 ? latencies.length / connected : 0;
  console.log(
    `${clients.toLocaleString('en')} SSE clients in ${processes} other process(es): ${connected} connected, ` +
      `transport ${hub.stats()[0]?.transport}; ${perChange.toFixed(0)} changes × clients = ${latencies.length} deliveries; ` +
      `visible in simulator → event at client p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, ` +
      `max ${latencies.at(-1)} ms; server memory per client: heap ${((after.heapUsed - before.heapUsed) / clients / 1024).toFixed(1)} KB, ` +
      `rss ${((after.rss - before.rss) / clients / 1024).toFixed(1)} KB`,
  );
  console.log(
    `  of which: visible → event in the server p50 ${percentile(fresh, 50)} ms; ` +
      `writing it to all ${connected} sockets p50 ${percentile(writes, 50).toFixed(0)} ms, max ${writes.at(-1)?.toFixed(0)} ms ` +
      `(the rest is the kernel and the client processes, all sharing ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`,
  );
  console.log(
    `  fan-out loop (synchronous): p50 ${percentile(loops, 50).toFixed(0)} ms, max ${loops.at(-1)?.toFixed(0)} ms; ` +
      `CPU per client p50 ${percentile(cpuPerClient, 50).toFixed(1)} µs`,
  );
  for (const c of children) c.exit();
  warm.unsubscribe();
  hub.close();
  await app.close();
  await sim.close();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
declare function gc(): void;

console.log(`open files limit (ulimit -n): ${openFileLimit()}`);
for (const n of [1, 100, 1_000]) {
  console.log(
    `${n} subscriber(s): ${(await upstreamPerMinute(n)).toFixed(1)} upstream OpenF1 requests per minute (polling)`,
  );
}
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
for (const n of sizes.length > 0 ? sizes : [1_000, 10_000]) await fanOut(n);
process.exit(0);
