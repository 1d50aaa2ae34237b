// Companions whose names clean to the same id on one broker. Before, both used
// client id `flaglight-living_room` and the topics `flaglight/living_room/…`: the broker dropped one
// for the other about once a second, availability flipped, the rooms overwrote each other's retained
// flag and the status page still said "connected".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FlagEventData } from '@flaglight/core';
import mqtt from 'mqtt';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { MOSQUITTO, startBroker, subscribeAll, type Broker } from '../../test/mosquitto.js';
import { createLogger, type Logger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { createHomeSupport, type HomeSupport } from './home-support.js';
import type { MqttTiming } from './mqtt-publisher.js';
import { deriveMqttId } from './mqtt-topics.js';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function flag(state: FlagEventData['state'], message: string): FlagEventData {
  const now = new Date().toISOString();
  return { sessionKey: 9999, state, activeSectors: [], cause: { date: now, message }, emittedAt: now };
}

function dataFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-mqtt-id-'));
  cleanup.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A companion's MQTT side as `startCompanion` wires it: its name, its data folder, its log. */
function startHome(
  url: string,
  name: string,
  dir: string,
  timing: Partial<MqttTiming> = {},
): { home: HomeSupport; log: Logger; store: StateFile } {
  const log = createLogger({ console: false });
  const store = new StateFile(dir);
  store.load();
  const home = createHomeSupport({
    mqtt: { url },
    companionName: name,
    store,
    log,
    publisher: { timing },
  });
  cleanup.push(() => home.close());
  return { home, log, store };
}

const mqttOf = (home: HomeSupport) => {
  const status = home.status().mqtt;
  if (!status) throw new Error('no MQTT status');
  return status;
};

describe('MQTT ids', () => {
  test('the name stays readable; the suffix tells same-named companions apart', () => {
    expect(deriveMqttId('Living Room', '3f2a')).toBe('living_room_3f2a');
    expect(deriveMqttId('living/room', '09be')).toBe('living_room_09be');
    expect(deriveMqttId('', '0000')).toBe('companion_0000');
    expect(deriveMqttId('x'.repeat(100), 'abcd')).toHaveLength(64);
  });

  test('the suffix is made once, kept in the state file across restarts, and is random per folder', () => {
    const dir = dataFolder();
    const first = new StateFile(dir);
    first.load();
    createHomeSupport({
      mqtt: null,
      companionName: 'pi',
      store: first,
      log: createLogger({ console: false }),
    });
    expect(first.get().mqtt).toBeUndefined();
    const a = startHome('mqtt://127.0.0.1:9', 'pi', dir);
    const again = startHome('mqtt://127.0.0.1:9', 'pi', dir);
    const other = startHome('mqtt://127.0.0.1:9', 'pi', dataFolder());
    expect(mqttOf(a.home).topic).toMatch(/^flaglight\/pi_[0-9a-f]{4}$/);
    expect(mqttOf(again.home).topic).toBe(mqttOf(a.home).topic);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8'))).toMatchObject({
      mqtt: { suffix: mqttOf(a.home).topic.slice(-4) },
    });
    // 1 in 65 536 that two folders draw the same suffix: then this test would need a second look.
    expect(mqttOf(other.home).topic).not.toBe(mqttOf(a.home).topic);
  });
});

describe.skipIf(!MOSQUITTO)('MQTT identities on a real Mosquitto broker', () => {
  async function broker(): Promise<Broker> {
    const started = await startBroker();
    cleanup.push(() => started.close());
    return started;
  }

  test(
    '"Living Room" and "living/room" on one broker both stay online for 60 s, each with its own retained flag',
    { timeout: paced(90_000) },
    async () => {
      const b = await broker();
      const watcher = await subscribeAll(b.url);
      cleanup.push(() => watcher.client.endAsync());
      const living = startHome(b.url, 'Living Room', dataFolder());
      const other = startHome(b.url, 'living/room', dataFolder());
      await vi.waitFor(() => {
        expect(mqttOf(living.home).state).toBe('connected');
        expect(mqttOf(other.home).state).toBe('connected');
      });
      living.home.played(flag('red', 'RED FLAG'), 'Flaglight server', 0);
      other.home.played(flag('green', 'TRACK CLEAR'), 'Flaglight server', 0);

      const started = Date.now();
      let samples = 0;
      while (Date.now() - started < 60_000) {
        expect(mqttOf(living.home)).toMatchObject({ state: 'connected', message: null });
        expect(mqttOf(other.home)).toMatchObject({ state: 'connected', message: null });
        const offline = watcher.seen.filter(
          (m) => m.topic.endsWith('/availability') && m.payload !== 'online',
        );
        expect(offline).toEqual([]);
        samples += 1;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const connects = (log: Logger) => log.recent().filter((e) => /MQTT: connected/.test(e.message)).length;
      console.log(
        `two same-named companions, 60 s: ${samples} samples all connected; connects ${connects(living.log)} and ${connects(other.log)}`,
      );
      expect(connects(living.log)).toBe(1);
      expect(connects(other.log)).toBe(1);
      const livingBase = mqttOf(living.home).topic;
      const otherBase = mqttOf(other.home).topic;
      expect(livingBase).toMatch(/^flaglight\/living_room_[0-9a-f]{4}$/);
      expect(otherBase).toMatch(/^flaglight\/living_room_[0-9a-f]{4}$/);
      expect(livingBase).not.toBe(otherBase);

      // A subscriber arriving now (Home Assistant after a restart) reads each room's own flag.
      const late = await subscribeAll(b.url);
      cleanup.push(() => late.client.endAsync());
      await vi.waitFor(() => {
        expect(late.last(`${livingBase}/flag`)).toMatchObject({ payload: 'red', retain: true });
        expect(late.last(`${otherBase}/flag`)).toMatchObject({ payload: 'green', retain: true });
        expect(late.last(`${livingBase}/availability`)?.payload).toBe('online');
        expect(late.last(`${otherBase}/availability`)?.payload).toBe('online');
      });
      const config = (base: string) =>
        JSON.parse(late.last(`homeassistant/sensor/flaglight_${base.slice(10)}/flag/config`)!.payload) as {
          unique_id: string;
          state_topic: string;
          default_entity_id: string;
        };
      expect(config(livingBase)).toMatchObject({ state_topic: `${livingBase}/flag` });
      expect(config(otherBase)).toMatchObject({ state_topic: `${otherBase}/flag` });
      expect(config(livingBase).unique_id).not.toBe(config(otherBase).unique_id);
      // Entity ids stay readable; Home Assistant adds `_2` to the second itself.
      expect(config(livingBase).default_entity_id).toBe('sensor.flaglight_living_room_flag');
    },
  );

  test(
    'two copies of one companion (one data folder) fighting over its client id: both say another client took the connection, back off, and never read connected while it lasts',
    { timeout: paced(90_000) },
    async () => {
      const b = await broker();
      const dir = dataFolder();
      // Short times so the test does not wait minutes; production: decision 035.
      const timing: Partial<MqttTiming> = {
        reconnectMinMs: 100,
        reconnectMaxMs: 400,
        takeoverWindowMs: 3_000,
        takeoverCloses: 3,
        takenOverMaxMs: 1_000,
        stableMs: 5_000,
      };
      const first = startHome(b.url, 'Pi', dir, timing);
      await vi.waitFor(() => expect(mqttOf(first.home).state).toBe('connected'));
      const copy = startHome(b.url, 'Pi', dir, timing);
      expect(mqttOf(copy.home).topic).toBe(mqttOf(first.home).topic);

      await vi.waitFor(
        () => {
          expect(mqttOf(first.home).state).toBe('taken-over');
          expect(mqttOf(copy.home).state).toBe('taken-over');
        },
        { timeout: paced(30_000) },
      );
      expect(mqttOf(first.home).message).toMatch(
        /^Another client took this connection: .* \(flaglight-pi_[0-9a-f]{4}\)/,
      );
      // A clear line, not a flip-flop: while both run, neither status reads connected again.
      const connects = (log: Logger) => log.recent().filter((e) => /MQTT: connected/.test(e.message)).length;
      const connectsBefore = connects(first.log) + connects(copy.log);
      const seen = new Set<string>();
      const until = Date.now() + 8_000;
      while (Date.now() < until) {
        seen.add(mqttOf(first.home).state).add(mqttOf(copy.home).state);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect([...seen]).toEqual(['taken-over']);
      console.log(
        `one client id, two companions taken over: ${connects(first.log) + connects(copy.log) - connectsBefore} connects in 8 s (back-off capped at 1 s here)`,
      );
      const warnings = (log: Logger) =>
        log.recent().filter((e) => e.level === 'warn' && /Another client took/.test(e.message)).length;
      expect(warnings(first.log)).toBe(1);
      expect(warnings(copy.log)).toBe(1);

      // The copy stops: the first holds the connection past the stable time and reads connected again.
      await copy.home.close();
      await vi.waitFor(
        () => expect(mqttOf(first.home)).toMatchObject({ state: 'connected', message: null }),
        {
          timeout: paced(30_000),
        },
      );
    },
  );

  test(
    'an upgraded companion removes the name-only topics and discovery its older version left, once; a new install leaves them alone',
    { timeout: paced(60_000) },
    async () => {
      const b = await broker();
      const old = await mqtt.connectAsync(b.url);
      cleanup.push(() => old.endAsync());
      const legacy = {
        'homeassistant/sensor/flaglight_living_room/flag/config':
          '{"unique_id":"flaglight_living_room_flag"}',
        'homeassistant/sensor/flaglight_living_room/session/config':
          '{"unique_id":"flaglight_living_room_session"}',
        'flaglight/living_room/flag': 'yellow',
        'flaglight/living_room/state': '{"flag":"yellow"}',
        'flaglight/living_room/availability': 'offline',
      };
      const leaveLegacy = async () => {
        for (const [topic, payload] of Object.entries(legacy))
          await old.publishAsync(topic, payload, { qos: 1, retain: true });
      };
      const retainedLegacy = async () => {
        const reader = await subscribeAll(b.url);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await reader.client.endAsync();
        return reader.seen
          .filter((m) => m.retain && m.topic in legacy && m.payload !== '')
          .map((m) => m.topic);
      };

      // A new install (no state file yet) never touches topics it did not publish.
      await leaveLegacy();
      const fresh = startHome(b.url, 'Living Room', dataFolder());
      await vi.waitFor(() => expect(mqttOf(fresh.home).state).toBe('connected'));
      await fresh.home.close();
      expect((await retainedLegacy()).sort()).toEqual(Object.keys(legacy).sort());

      // An installation of an older version (its state file exists, no MQTT suffix in it).
      const dir = dataFolder();
      fs.writeFileSync(
        path.join(dir, 'state.json'),
        JSON.stringify({ server: 'http://127.0.0.1:1', paused: false }),
      );
      const upgraded = startHome(b.url, 'Living Room', dir);
      await vi.waitFor(() => expect(upgraded.store.get().mqtt?.legacyCleared).toBe(true));
      expect(await retainedLegacy()).toEqual([]);
      expect(upgraded.log.recent().map((e) => e.message)).toContainEqual(
        expect.stringMatching(/removed what an older version published under flaglight\/living_room\//),
      );
      await upgraded.home.close();

      // Once: a same-named older companion publishing again later keeps its topics.
      await leaveLegacy();
      const restarted = startHome(b.url, 'Living Room', dir);
      await vi.waitFor(() => expect(mqttOf(restarted.home).state).toBe('connected'));
      await restarted.home.close();
      expect((await retainedLegacy()).sort()).toEqual(Object.keys(legacy).sort());
    },
  );
});
