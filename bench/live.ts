/**
 * Live engine benchmark (DESIGN §7): upstream requests per minute for 1, 100 and 1,000
 * subscribers; message visible in the simulator → SSE event at N clients (p50, p99); memory per
 * client. Prints figures, asserts nothing. Run: npm run bench:live -w @flaglight/bench [-- 10000]
 */
import http from 'node:http';
import { DEMO_REPLAY_FIXTURE, startOpenF1Sim } from '@flaglight/sims';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AuthService } from '../apps/server/src/auth/service.js';
import { createInProcessBus } from '../apps/server/src/live/bus.js';
import { createSystemTimers } from '../apps/server/src/live/clock.js';
import { createFakeTimers } from '../apps/server/src/live/fake-timers.js';
import { createLiveHub } from '../apps/server/src/live/hub.js';
import { connectMqttPush } from '../apps/server/src/live/push.js';
import { liveRoutes } from '../apps/server/src/live/routes.js';
import { createTicketStore } from '../apps/server/src/live/tickets.js';
import { createOpenF1Client } from '../apps/server/src/openf1/client.js';

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

async function fanOut(clients: number): Promise<void> {
  const sim = await startOpenF1Sim({
    mqttPort: 0,
    replays: [{ fixture: DEMO_REPLAY_FIXTURE, positionMinutes: 137.6, speed: 30 }],
  });
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
  await app.register(liveRoutes, { auth: {} as AuthService, hub, tickets, timers });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const latencies: number[] = [];
  gc();
  const before = process.memoryUsage();
  let connected = 0;
  const requests: http.ClientRequest[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const { ticket } = await tickets.issue('bench');
      await new Promise<void>((resolve) => {
        const req = http.get(`${origin}/api/live/events?ticket=${ticket}`, { agent }, (res) => {
          connected += 1;
          let first = true;
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let i: number;
            while ((i = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, i);
              buffer = buffer.slice(i + 2);
              const data = /\ndata: (.*)/.exec(block)?.[1];
              if (!block.includes('event: flag') || !data) continue;
              if (first) {
                first = false; // the current state, not a fresh message
                continue;
              }
              const cause = Date.parse((JSON.parse(data) as { cause: { date: string } }).cause.date);
              latencies.push(Date.now() - cause);
            }
          });
          resolve();
        });
        req.on('error', () => resolve());
        requests.push(req);
      });
    }),
  );
  gc();
  const after = process.memoryUsage();
  await new Promise((r) => setTimeout(r, 12_000));
  latencies.sort((a, b) => a - b);
  console.log(
    `${clients} SSE clients (${connected} connected, push transport: ${hub.stats()[0]?.transport}): ` +
      `${latencies.length} deliveries, visible→client p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms; ` +
      `memory per client (server + in-process client) heap ${((after.heapUsed - before.heapUsed) / clients / 1024).toFixed(1)} KB, ` +
      `rss ${((after.rss - before.rss) / clients / 1024).toFixed(1)} KB`,
  );
  for (const req of requests) req.destroy();
  agent.destroy();
  hub.close();
  await app.close();
  await sim.close();
}

declare function gc(): void;

for (const n of [1, 100, 1_000]) {
  console.log(
    `${n} subscriber(s): ${(await upstreamPerMinute(n)).toFixed(1)} upstream OpenF1 requests per minute (polling)`,
  );
}
const extra = Number(process.argv[2]);
for (const n of [1_000, ...(Number.isFinite(extra) && extra > 0 ? [extra] : [])]) await fanOut(n);
process.exit(0);
