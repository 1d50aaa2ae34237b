import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FlagEventData } from '@flaglight/core';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { MOSQUITTO, startBroker, subscribeAll as subscribe, type Broker } from '../../test/mosquitto.js';
import { createLogger } from '../system/log.js';
import { parseMqttSettings } from './mqtt-options.js';
import { createMqttPublisher, type MqttPublisher } from './mqtt-publisher.js';
import { discoveryConfigs, flagWord, mqttTopics } from './mqtt-topics.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function flag(
  state: FlagEventData['state'],
  message: string,
  extra: Partial<FlagEventData> = {},
): FlagEventData {
  const now = new Date().toISOString();
  return {
    sessionKey: 9999,
    state,
    activeSectors: [],
    cause: { date: now, message },
    emittedAt: now,
    ...extra,
  };
}

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function publisherFor(url: string, settings: { username?: string; password?: string } = {}): MqttPublisher {
  const log = createLogger({ console: false });
  const publisher = createMqttPublisher(
    { url, ...settings },
    { companionId: 'living-room', name: 'Flaglight Companion (living-room)', version: '9.9.9' },
    log,
  );
  cleanup.push(() => publisher.close());
  return publisher;
}

describe('MQTT topics', () => {
  test('the flag is one word: safety car and double yellow told apart, chequered spelt the British way', () => {
    expect(flagWord(null)).toBe('none');
    expect(flagWord(flag('yellow', 'YELLOW IN TRACK SECTOR 4'))).toBe('yellow');
    expect(flagWord(flag('yellow', 'DOUBLE YELLOW IN TRACK SECTOR 4'))).toBe('double_yellow');
    expect(flagWord(flag('yellow', 'SAFETY CAR DEPLOYED', { safetyCar: true }))).toBe('safety_car');
    expect(flagWord(flag('checkered', 'CHEQUERED FLAG'))).toBe('chequered');
    expect(flagWord(flag('vsc_ending', 'VSC ENDING'))).toBe('vsc_ending');
    expect(flagWord(flag('fastest_lap', 'FASTEST LAP'))).toBe('fastest_lap');
  });

  test('ids are safe for topics and for Home Assistant', () => {
    expect(mqttTopics('Living Room #2/+').base).toBe('flaglight/Living_Room__2__');
    const [flagConfig, sessionConfig] = discoveryConfigs({
      companionId: 'pc1',
      name: 'PC',
      version: '1.0.0',
    });
    expect(flagConfig?.topic).toBe('homeassistant/sensor/flaglight_pc1/flag/config');
    expect(flagConfig?.payload).toMatchObject({
      unique_id: 'flaglight_pc1_flag',
      state_topic: 'flaglight/pc1/flag',
      availability_topic: 'flaglight/pc1/availability',
      json_attributes_topic: 'flaglight/pc1/state',
      device_class: 'enum',
      device: { identifiers: ['flaglight_pc1'], model: 'Flaglight Companion', sw_version: '1.0.0' },
    });
    expect(sessionConfig?.topic).toBe('homeassistant/sensor/flaglight_pc1/session/config');
  });
});

describe('--mqtt', () => {
  test('takes mqtt:// and mqtts://, with the user and password in the address or the environment', () => {
    expect(parseMqttSettings(undefined, {})).toBeNull();
    expect(parseMqttSettings('mqtt://u:p%40ss@broker.local:1883', {})).toEqual({
      url: 'mqtt://broker.local:1883',
      username: 'u',
      password: 'p@ss',
    });
    expect(
      parseMqttSettings(undefined, {
        FLAGLIGHT_MQTT_URL: 'mqtts://broker.local',
        FLAGLIGHT_MQTT_USERNAME: 'ha',
        FLAGLIGHT_MQTT_PASSWORD: 'secret',
      }),
    ).toEqual({ url: 'mqtts://broker.local', username: 'ha', password: 'secret' });
  });

  test.each([
    ['http://broker.local', 'use an mqtt:// or mqtts:// address'],
    ['broker.local:1883', 'use an mqtt:// or mqtts:// address'],
    ['not a url', 'is not a URL'],
  ])('%s is refused with a clear line', (value, message) => {
    expect(() => parseMqttSettings(value, {})).toThrow(message);
  });
});

describe.skipIf(!MOSQUITTO)('MQTT with a real Mosquitto broker', () => {
  async function broker(options: Parameters<typeof startBroker>[0] = {}): Promise<Broker> {
    const started = await startBroker(options);
    cleanup.push(() => started.close());
    return started;
  }

  test('retained availability, Home Assistant discovery and the flag; a late subscriber gets them all', async () => {
    const b = await broker();
    const publisher = publisherFor(b.url);
    await vi.waitFor(() => expect(publisher.status().state).toBe('connected'));
    publisher.played({
      data: flag('yellow', 'DOUBLE YELLOW IN TRACK SECTOR 7', { activeSectors: [7] }),
      source: 'Flaglight server',
      delayMs: 5_000,
      playedAt: new Date(),
    });

    const sub = await subscribe(b.url);
    cleanup.push(() => sub.client.endAsync());
    await vi.waitFor(() => expect(sub.last('flaglight/living-room/flag')?.payload).toBe('double_yellow'));
    expect(sub.last('flaglight/living-room/flag')?.retain).toBe(true);
    expect(sub.last('flaglight/living-room/availability')).toMatchObject({ payload: 'online', retain: true });
    const state = JSON.parse(sub.last('flaglight/living-room/state')!.payload) as Record<string, unknown>;
    expect(state).toMatchObject({
      flag: 'double_yellow',
      sectors: [7],
      session: { key: 9999 },
      source: 'Flaglight server',
      delaySeconds: 5,
    });
    const config = JSON.parse(
      sub.last('homeassistant/sensor/flaglight_living-room/flag/config')!.payload,
    ) as Record<string, unknown>;
    expect(config).toMatchObject({
      unique_id: 'flaglight_living-room_flag',
      state_topic: 'flaglight/living-room/flag',
      availability_topic: 'flaglight/living-room/availability',
      device: {
        name: 'Flaglight Companion (living-room)',
        model: 'Flaglight Companion',
        sw_version: '9.9.9',
      },
    });
    expect(sub.last('homeassistant/sensor/flaglight_living-room/session/config')?.retain).toBe(true);

    // A change reaches a live subscriber (not retained on the live copy), as played.
    const sent = Date.now();
    publisher.played({
      data: flag('red', 'RED FLAG'),
      source: 'Flaglight server',
      delayMs: 0,
      playedAt: new Date(),
    });
    await vi.waitFor(() => expect(sub.last('flaglight/living-room/flag')?.payload).toBe('red'));
    expect(sub.last('flaglight/living-room/flag')!.at - sent).toBeGreaterThanOrEqual(0);
  });

  test('a killed companion reads offline: the broker sends its last will', async () => {
    const b = await broker();
    const sub = await subscribe(b.url);
    cleanup.push(() => sub.client.endAsync());
    const module = pathToFileURL(path.join(here, 'mqtt-publisher.ts')).href;
    const logModule = pathToFileURL(path.join(here, '../system/log.ts')).href;
    const script = `
      const { createMqttPublisher } = await import(${JSON.stringify(module)});
      const { createLogger } = await import(${JSON.stringify(logModule)});
      const p = createMqttPublisher({ url: ${JSON.stringify(b.url)} }, { companionId: 'killed', name: 'K', version: '1' }, createLogger({ console: false }));
      setInterval(() => { if (p.status().state === 'connected') console.log('connected'); }, 50);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: here,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    cleanup.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    await vi.waitFor(() => expect(sub.last('flaglight/killed/availability')?.payload).toBe('online'), {
      timeout: paced(15_000),
    });
    child.kill('SIGKILL');
    await exited;
    await vi.waitFor(() => expect(sub.last('flaglight/killed/availability')?.payload).toBe('offline'), {
      timeout: paced(10_000),
    });
  });

  test(
    'after a broker restart it connects again and publishes discovery and the current flag again',
    { timeout: paced(40_000) },
    async () => {
      const b = await broker();
      const publisher = publisherFor(b.url);
      await vi.waitFor(() => expect(publisher.status().state).toBe('connected'));
      publisher.played({
        data: flag('vsc', 'VIRTUAL SAFETY CAR DEPLOYED'),
        source: 'Flaglight server',
        delayMs: 0,
        playedAt: new Date(),
      });
      await b.stop();
      await vi.waitFor(() => expect(publisher.status().state).toBe('reconnecting'));
      expect(publisher.status().message).toMatch(/not reachable/);
      // The broker kept nothing (persistence false): what a new subscriber gets came after the restart.
      await b.start();
      await vi.waitFor(() => expect(publisher.status().state).toBe('connected'), { timeout: paced(15_000) });
      const sub = await subscribe(b.url);
      cleanup.push(() => sub.client.endAsync());
      await vi.waitFor(() => expect(sub.last('flaglight/living-room/flag')?.payload).toBe('vsc'));
      expect(sub.last('homeassistant/sensor/flaglight_living-room/flag/config')?.retain).toBe(true);
      expect(sub.last('flaglight/living-room/availability')?.payload).toBe('online');
    },
  );

  test('a wrong password is a clear line on the status, never a crash; the right one connects', async () => {
    const b = await broker({ users: { ha: 'right-password' } });
    const wrong = publisherFor(b.url, { username: 'ha', password: 'wrong' });
    await vi.waitFor(() => expect(wrong.status().state).toBe('refused'));
    expect(wrong.status().message).toMatch(/refused the user name or password/);
    expect(JSON.stringify(wrong.status())).not.toContain('wrong');
    const right = publisherFor(b.url, { username: 'ha', password: 'right-password' });
    await vi.waitFor(() => expect(right.status().state).toBe('connected'));
  });

  test('an unreachable broker says so and keeps trying', { timeout: paced(40_000) }, async () => {
    const b = await broker();
    await b.stop();
    const publisher = publisherFor(b.url);
    await vi.waitFor(() => expect(publisher.status().message).toMatch(/is not reachable/));
    expect(publisher.status().state).not.toBe('connected');
    publisher.played({
      data: flag('red', 'RED FLAG'),
      source: 'Flaglight server',
      delayMs: 0,
      playedAt: new Date(),
    });
    await b.start();
    await vi.waitFor(() => expect(publisher.status().state).toBe('connected'), { timeout: paced(15_000) });
    const sub = await subscribe(b.url);
    cleanup.push(() => sub.client.endAsync());
    // What was played while the broker was away is the current flag once it is back.
    await vi.waitFor(() => expect(sub.last('flaglight/living-room/flag')?.payload).toBe('red'));
  });
});
