import { type RaceControlRow } from '@flaglight/data';
import Fastify from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pollUntil } from '../../../../scripts/test-pace.mjs';
import { parseJson, rawGet } from '../../test/http.js';
import { RACE_CONTROL_TOPIC } from './push.js';
import { startOpenF1Sim, type RunningOpenF1Sim } from './server.js';
import { createOpenF1Sim, DEMO_REPLAY_FIXTURE } from './sim.js';

const START = Date.parse('2026-09-06T12:00:00Z');
let t = START;
let sim: RunningOpenF1Sim;
const clients: MqttClient[] = [];

type Pushed = RaceControlRow & { _id: number; _key: string };

beforeEach(async () => {
  t = START;
  sim = await startOpenF1Sim({ now: () => t });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  await sim.close();
});

async function connect(url: string, password: string, username = 'fan@example.com'): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, {
    username,
    password,
    reconnectPeriod: 0,
    connectTimeout: 3000,
  });
  clients.push(client);
  return client;
}

async function subscribed(url: string): Promise<{ client: MqttClient; received: Pushed[] }> {
  const client = await connect(url, sim.control.issueToken());
  const received: Pushed[] = [];
  client.on('message', (topic, payload) => {
    if (topic === RACE_CONTROL_TOPIC) received.push(JSON.parse(payload.toString()) as Pushed);
  });
  await client.subscribeAsync(RACE_CONTROL_TOPIC);
  return { client, received };
}

const until = (check: () => boolean, timeoutMs = 2000) => pollUntil(check, timeoutMs, 10);

describe('MQTT push', () => {
  test('refuses a connection whose password is not a valid access token', async () => {
    await expect(connect(sim.mqttUrl!, 'not-a-token')).rejects.toThrow(/Bad username or password/i);
    await expect(connect(sim.mqttUrl!, sim.control.issueToken(), '')).rejects.toThrow();
    sim.control.expireTokens();
  });

  test('publishes each message on v1/race_control as it shows, in order, as the REST object plus _id and _key', async () => {
    const { received } = await subscribed(sim.mqttUrl!);
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START + 1, speed: 20 });
    t = START + 5 * 60_000;
    const published = await sim.control.tick();
    expect(published).toBeGreaterThan(3);
    await until(() => received.length === published);
    const rest = parseJson<RaceControlRow[]>(await rawGet(sim.url, '/v1/race_control?session_key=latest'));
    expect(received.map(({ _id: _i, _key: _k, ...row }) => row)).toEqual(rest);
    const ids = received.map((m) => m._id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(received.map((m) => m._key)).size).toBe(received.length);
    t += 3 * 3_600_000;
    const more = await sim.control.tick();
    expect(published + more).toBe(98);
    await until(() => received.length === published + more);
    expect(received[published]?._id).toBeGreaterThan(ids[ids.length - 1]!);
  });

  test('messages shown before the replay was set up are not pushed', async () => {
    const { received } = await subscribed(sim.mqttUrl!);
    sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedMinutesAgo: 200 });
    expect(await sim.control.tick()).toBe(0);
    expect(received).toEqual([]);
  });

  test('pushes on its own timer with the real clock', async () => {
    const real = await startOpenF1Sim({ mqttPort: 0 });
    try {
      const client = await connect(real.mqttUrl!, real.control.issueToken());
      const received: Pushed[] = [];
      client.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString()) as Pushed));
      await client.subscribeAsync(RACE_CONTROL_TOPIC);
      // At 10 000x the Spanish qualifying's 19 messages play out in under half a second.
      real.control.replay({ fixture: '2024-spain-qualifying', startedAt: Date.now() + 50, speed: 10_000 });
      await until(() => received.length === 19, 3000);
      expect(received.map((m) => m.message)[0]).toBe('GREEN LIGHT - PIT EXIT OPEN');
    } finally {
      await real.close();
    }
  });

  test('works over WebSocket at /mqtt', async () => {
    const { received } = await subscribed(sim.wsUrl);
    sim.control.replay({ fixture: '2024-spain-qualifying', startedAt: START + 1 });
    t = START + 60_000;
    expect(await sim.control.tick()).toBe(1);
    await until(() => received.length === 1);
    expect(received[0]?.message).toBe('GREEN LIGHT - PIT EXIT OPEN');
  });

  test('works over WebSocket under the app prefix /sims/openf1/mqtt', async () => {
    const openf1 = await createOpenF1Sim({ now: () => t });
    const app = Fastify();
    await app.register(openf1.plugin, { prefix: '/sims/openf1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const client = await connect(`ws://127.0.0.1:${port}/sims/openf1/mqtt`, openf1.control.issueToken());
      expect(client.connected).toBe(true);
      await expect(connect(`ws://127.0.0.1:${port}/sims/openf1/mqtt`, 'bad')).rejects.toThrow();
    } finally {
      await app.close();
    }
  });

  test('dropPush closes every connection, and can refuse reconnects for a while', async () => {
    const tcp = await connect(sim.mqttUrl!, sim.control.issueToken());
    const ws = await connect(sim.wsUrl, sim.control.issueToken());
    await until(() => sim.control.pushClients() === 2);
    const closed = Promise.all([tcp, ws].map((c) => new Promise<void>((r) => c.once('close', () => r()))));
    expect(sim.control.dropPush({ refuseForMs: 30_000 })).toBe(2);
    await closed;
    await expect(connect(sim.mqttUrl!, sim.control.issueToken())).rejects.toThrow(/unavailable/i);
    t += 30_000;
    const again = await connect(sim.mqttUrl!, sim.control.issueToken());
    expect(again.connected).toBe(true);
  });
});
