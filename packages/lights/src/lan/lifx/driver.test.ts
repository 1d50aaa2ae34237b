import { createSocket, type Socket } from 'node:dgram';
import {
  COLOR_PRESETS,
  decodeLifxPacket,
  encodeLifxPacket,
  LIFX_SERVICE_UDP,
  type LifxMessage,
  type LightStep,
} from '@flaglight/core';
import { startVirtualLifxBulbs, type LifxReceived, type VirtualLifxBulbs } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { until } from '../../../test/fake-timers.js';
import type { DriverEvent } from '../../driver.js';
import { createEffectPlayer } from '../../player/player.js';
import {
  createLifxLanDriver,
  type LanTarget,
  type LifxLanDriver,
  type LifxLanDriverOptions,
} from './driver.js';
import { strobeWrites } from './messages.js';

const LOOPBACK = '127.0.0.1';
let sims: VirtualLifxBulbs[] = [];
let drivers: LifxLanDriver[] = [];
let sockets: Socket[] = [];

afterEach(async () => {
  await Promise.all(drivers.map((d) => d.close()));
  await Promise.all(sims.map((s) => s.close()));
  for (const s of sockets) s.close();
  drivers = [];
  sims = [];
  sockets = [];
});

async function setup(
  options: {
    count?: number;
    random?: () => number;
    extraTargets?: LanTarget[];
  } & Partial<LifxLanDriverOptions> = {},
) {
  const { count = 3, random, extraTargets = [], ...driverOptions } = options;
  const bulbs = await startVirtualLifxBulbs({ count, ...(random ? { random } : {}) });
  sims.push(bulbs);
  const events: DriverEvent[] = [];
  const logs: string[] = [];
  const driver = createLifxLanDriver({
    targets: [{ host: bulbs.host, port: bulbs.discoveryPort }, ...extraTargets],
    bindAddress: LOOPBACK,
    discoveryWindowMs: 150,
    rescanIntervalMs: 0,
    onLog: (m) => logs.push(m),
    ...driverOptions,
  });
  drivers.push(driver);
  driver.subscribe((e) => events.push(e));
  return { bulbs, driver, events, logs };
}

/** What a bulb applied (dropped and offline datagrams left out), gets and probes aside. */
const writes = (log: LifxReceived[]) =>
  log.filter((r) => r.ignored === null && r.via === 'bulb' && /^Light(Set|SetPower)/.test(r.type));

const idOf = (mac: string) => mac.replace(/:/g, '');
const strobeOf = (flag: 'red' | 'yellow' | 'checkered'): Extract<LightStep, { kind: 'strobe' }> => {
  const color =
    flag === 'red' ? COLOR_PRESETS.red : flag === 'yellow' ? COLOR_PRESETS.yellow : COLOR_PRESETS.white;
  return flag === 'checkered'
    ? {
        kind: 'strobe',
        atMs: 0,
        color,
        fromColor: COLOR_PRESETS.black,
        brightness: 1,
        periodMs: 200,
        cycles: 15,
      }
    : {
        kind: 'strobe',
        atMs: 0,
        color,
        fromColor: COLOR_PRESETS.black,
        brightness: 1,
        periodMs: 100,
        cycles: 10,
      };
};

describe('LIFX LAN discovery', () => {
  test('one unicast GetService to the discovery port finds every bulb, with labels and ports', async () => {
    const { bulbs, driver } = await setup({ count: 6 });
    const found = await driver.discover();
    expect(found.map((d) => d.label).sort()).toEqual(
      ['Lounge', 'Kitchen', 'Desk', 'Hallway', 'Bedroom', 'Porch'].sort(),
    );
    expect(found.every((d) => d.connected && d.type === 'lifx_lan')).toBe(true);
    const byId = new Map(driver.devices().map((d) => [d.id, d]));
    for (const bulb of bulbs.list()) {
      const seen = byId.get(idOf(bulb.id));
      expect(seen).toMatchObject({ mac: bulb.id, address: LOOPBACK, port: bulb.port, reachable: true });
      expect(seen?.id).toMatch(/^d073d51a000[1-6]$/);
      // The GetService came to the shared discovery port only, tagged and with a non-zero source.
      const first = bulbs.log(bulb.id)[0]!;
      expect(first).toMatchObject({ via: 'discovery', type: 'GetService' });
      expect(first.source).not.toBe(0);
      // The label query went to the bulb's own port (the one its StateService named).
      expect(bulbs.log(bulb.id).some((r) => r.via === 'bulb' && r.type === 'LightGet')).toBe(true);
    }
    expect(await driver.listDevices()).toHaveLength(6);
  });

  test('garbage, foreign and stray datagrams are ignored, and a non-light (223) is left out', async () => {
    // A fake LIFX Switch beside the bulbs: answers GetService, then StateUnhandled to LightGet, and
    // fires junk at the driver's socket before every answer.
    const swtch = createSocket('udp4');
    sockets.push(swtch);
    await new Promise<void>((resolve) => swtch.bind(0, LOOPBACK, resolve));
    const mac = 'd0:73:d5:99:00:01';
    const junk = (to: { port: number; address: string }, seq: number, source: number) => {
      const send = (bytes: Uint8Array) => swtch.send(bytes, to.port, to.address);
      send(new Uint8Array([1, 2, 3]));
      send(new Uint8Array(36).fill(0xff));
      const good = encodeLifxPacket(
        { tagged: false, source, target: mac, resRequired: false, ackRequired: false, sequence: seq },
        { type: 'StateLabel', label: 'junk' },
      );
      const wrongSize = good.slice();
      wrongSize[0] = 200;
      send(wrongSize);
      send(good.slice(0, 40));
      // Valid LIFX, but another app's source, and an ack nobody waits for.
      send(
        encodeLifxPacket(
          {
            tagged: false,
            source: (source + 1) >>> 0,
            target: mac,
            resRequired: false,
            ackRequired: false,
            sequence: seq,
          },
          { type: 'Acknowledgement' },
        ),
      );
      send(
        encodeLifxPacket(
          {
            tagged: false,
            source,
            target: mac,
            resRequired: false,
            ackRequired: false,
            sequence: (seq + 7) & 0xff,
          },
          { type: 'Acknowledgement' },
        ),
      );
    };
    swtch.on('message', (datagram, from) => {
      const { header, message } = decodeLifxPacket(new Uint8Array(datagram));
      junk(from, header.sequence, header.source);
      const reply = (m: LifxMessage) =>
        swtch.send(
          encodeLifxPacket(
            {
              tagged: false,
              source: header.source,
              target: mac,
              resRequired: false,
              ackRequired: false,
              sequence: header.sequence,
            },
            m,
          ),
          from.port,
          from.address,
        );
      if (message.type === 'GetService')
        reply({ type: 'StateService', service: LIFX_SERVICE_UDP, port: swtch.address().port });
      else if (message.type === 'LightGet') reply({ type: 'StateUnhandled', unhandledType: 101 });
    });
    const {
      bulbs,
      driver: withSwitch,
      logs,
    } = await setup({
      count: 2,
      extraTargets: [{ host: LOOPBACK, port: swtch.address().port }],
    });
    const found = await withSwitch.discover();
    expect(found.map((d) => d.id).sort()).toEqual(
      bulbs
        .list()
        .map((b) => idOf(b.id))
        .sort(),
    );
    expect(logs.some((l) => l.includes('d073d5990001 is not a light'))).toBe(true);
    await withSwitch.setState([], { on: true, color: COLOR_PRESETS.blue, brightness: 1, transitionMs: 0 });
    expect(bulbs.list().every((b) => b.color.hue === 43690)).toBe(true);
  });
});

describe('LIFX LAN flags at the bulb', () => {
  test('golden bytes: the red blink is SetColor + one SetWaveformOptional (reference §1.5)', () => {
    const [, waveform] = strobeWrites({ ...strobeOf('red'), periodMs: 500, cycles: 6 });
    const bytes = encodeLifxPacket(
      {
        tagged: false,
        source: 0x47414c46,
        target: 'd0:73:d5:12:34:56',
        resRequired: false,
        ackRequired: true,
        sequence: 7,
      },
      waveform!.message,
    );
    const payload = Array.from(bytes.subarray(36), (b) => b.toString(16).padStart(2, '0')).join(' ');
    expect(payload).toBe('00 01 00 00 ff ff 00 00 ac 0d f4 01 00 00 00 00 c0 40 00 00 04 00 00 01 00');
  });

  test.each(['red', 'yellow'] as const)('%s strobe: SetColor, one PULSE waveform, power on', async (flag) => {
    const { bulbs, driver } = await setup({ count: 2 });
    await driver.discover();
    const ids = driver.devices().map((d) => d.id);
    await driver.playStep(ids, strobeOf(flag));
    const hue = flag === 'red' ? 0 : 10923;
    for (const bulb of bulbs.list()) {
      const sent = writes(bulbs.log(bulb.id));
      expect(sent.map((r) => r.type)).toEqual(['LightSetColor', 'LightSetWaveformOptional', 'LightSetPower']);
      expect(sent.every((r) => r.ackRequired && !r.resRequired)).toBe(true);
      expect(sent[0]!.message).toMatchObject({
        color: { hue, saturation: 65535, brightness: 65535, kelvin: 3500 },
        durationMs: 0,
      });
      expect(bulb.lastWaveform).toMatchObject({
        waveformName: 'PULSE',
        transient: true,
        periodMs: 100,
        cycles: 10,
        skewRatio: 0,
        set: { hue: false, saturation: false, brightness: true, kelvin: false },
        color: { brightness: 0 },
      });
      expect(bulb.baseColor).toMatchObject({ hue, brightness: 65535 });
      expect(bulb.on).toBe(true);
    }
    expect(driver.devices()[0]!.lastColor).toBe(flag === 'red' ? '#ff0000' : '#ffff00');
  });

  test('chequered: white and dark alternate 15 times at 200 ms; green: a 200 ms fade', async () => {
    const { bulbs, driver } = await setup({ count: 1 });
    await driver.discover();
    const [id] = driver.devices().map((d) => d.id);
    await driver.playStep([id!], strobeOf('checkered'));
    const [bulb] = bulbs.list();
    expect(bulb!.baseColor).toEqual({ hue: 0, saturation: 0, brightness: 65535, kelvin: 6500 });
    expect(bulb!.lastWaveform).toMatchObject({
      periodMs: 200,
      cycles: 15,
      waveformName: 'PULSE',
      skewRatio: 0,
    });
    await driver.playStep([id!], {
      kind: 'set-state',
      atMs: 0,
      color: COLOR_PRESETS.green,
      brightness: 1,
      transitionMs: 200,
    });
    const last = writes(bulbs.log(bulb!.id)).at(-2)!;
    expect(last.message).toEqual({
      type: 'LightSetColor',
      color: { hue: 21845, saturation: 65535, brightness: 65535, kelvin: 3500 },
      durationMs: 200,
    });
    // A later SetColor stops the waveform.
    expect(bulbs.list()[0]!.waveformRunning).toBe(false);
    // Off is power 0, never brightness 0: the colour survives.
    await driver.setState([id!], { on: false, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 });
    expect(bulbs.list()[0]).toMatchObject({ on: false, baseColor: { hue: 21845, brightness: 65535 } });
    expect(driver.devices()[0]!.lastColor).toBe('#000000');
  });

  test('the effect player drives a red flag: strobe at once, solid 50% red at 1.5 s', async () => {
    const { bulbs, driver } = await setup({ count: 2 });
    await driver.discover();
    const ids = driver.devices().map((d) => d.id);
    const player = createEffectPlayer({ driver, devices: () => ids });
    player.play('red');
    const mac = bulbs.list()[0]!.id;
    await until(() => writes(bulbs.log(mac)).length >= 5, 4000);
    player.dispose();
    const sent = writes(bulbs.log(mac));
    expect(sent.map((r) => r.type)).toEqual([
      'LightSetColor',
      'LightSetWaveformOptional',
      'LightSetPower',
      'LightSetColor',
      'LightSetPower',
    ]);
    expect(sent[3]!.message).toMatchObject({ color: { hue: 0, saturation: 65535, brightness: 32768 } });
    // Solid at 1.5 s from the flag, not at once: on a loaded machine the strobe's own first packet
    // left 260 ms late once, so the gap between the two is measured with room for that.
    expect(sent[3]!.monotonicMs - sent[0]!.monotonicMs).toBeGreaterThanOrEqual(1000);
    expect(bulbs.list()[0]!.baseColor).toMatchObject({ hue: 0, brightness: 32768 });
  });
});

describe('LIFX LAN reliability', () => {
  test('a lost set is sent again with the same bytes after ~500 ms, and the ack ends it', async () => {
    // The bulb drops the first datagram of the SetColor, then takes everything.
    let drop = false;
    const { bulbs, driver } = await setup({ count: 1, random: () => (drop ? ((drop = false), 0) : 0.99) });
    await driver.discover();
    const [bulb] = bulbs.list();
    bulbs.setFault(bulb!.id, { dropPercent: 50 });
    drop = true;
    await driver.setState([], { on: true, color: COLOR_PRESETS.blue, brightness: 1, transitionMs: 0 });
    const colour = bulbs.log(bulb!.id).filter((r) => r.type === 'LightSetColor');
    expect(colour.map((r) => r.ignored)).toEqual(['dropped', null]);
    expect(colour[1]!.sequence).toBe(colour[0]!.sequence);
    expect(colour[1]!.monotonicMs - colour[0]!.monotonicMs).toBeGreaterThanOrEqual(300);
    expect(bulbs.list()[0]!.color.hue).toBe(43690);
    expect(driver.devices()[0]!.reachable).toBe(true);
  });

  test('under drops every set still lands: two lost, the third attempt (same sequence) acked', async () => {
    // The bulb drops two datagrams, takes the third, and so on: each write needs all 3 attempts.
    let calls = 0;
    const { bulbs, driver, events } = await setup({
      count: 1,
      resendAfterMs: 100,
      random: () => (calls++ % 3 === 2 ? 0.99 : 0),
    });
    await driver.discover();
    const [bulb] = bulbs.list();
    bulbs.setFault(bulb!.id, { dropPercent: 50 });
    calls = 0;
    await driver.playStep([], strobeOf('red'));
    const sent = bulbs.log(bulb!.id).filter((r) => r.via === 'bulb' && r.type !== 'LightGet');
    expect(sent.map((r) => `${r.type}:${r.ignored ?? 'ok'}`)).toEqual(
      ['LightSetColor', 'LightSetWaveformOptional', 'LightSetPower'].flatMap((t) => [
        `${t}:dropped`,
        `${t}:dropped`,
        `${t}:ok`,
      ]),
    );
    for (let i = 0; i < sent.length; i += 3)
      expect(new Set(sent.slice(i, i + 3).map((r) => r.sequence)).size).toBe(1);
    expect(bulbs.list()[0]).toMatchObject({ on: true, baseColor: { hue: 0 }, lastWaveform: { cycles: 10 } });
    expect(driver.devices()[0]!.reachable).toBe(true);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
  });

  test('three unanswered attempts mark a bulb unreachable; it comes back when it answers', async () => {
    const { bulbs, driver, events } = await setup({ count: 2, resendAfterMs: 150, probeIntervalMs: 100 });
    await driver.discover();
    const [lost, fine] = bulbs.list();
    bulbs.setFault(lost!.id, { offline: true });
    const red = { on: true, color: COLOR_PRESETS.red, brightness: 1, transitionMs: 0 };
    await expect(driver.setState([idOf(lost!.id)], red)).rejects.toMatchObject({
      kind: 'timeout',
      message: `LIFX bulb "${lost!.label}" is not answering`,
    });
    const tries = bulbs.log(lost!.id).filter((r) => r.type === 'LightSetColor');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.sequence)).size).toBe(1);
    expect(events).toContainEqual({ type: 'error', error: expect.objectContaining({ kind: 'timeout' }) });
    expect((await driver.listDevices()).find((d) => d.id === idOf(lost!.id))?.connected).toBe(false);
    await until(() => bulbs.log(lost!.id).some((r) => r.type === 'EchoRequest'), 2000);
    // Writes to the unreachable bulb wait as its last look; the others go on.
    const blue = { ...red, color: COLOR_PRESETS.blue };
    await driver.setState([], blue);
    expect(bulbs.get(fine!.id)?.color.hue).toBe(43690);
    bulbs.setFault(lost!.id, { offline: false });
    await until(() => driver.devices().find((d) => d.id === idOf(lost!.id))?.reachable === true, 3000);
    await until(() => bulbs.get(lost!.id)?.color.hue === 43690, 3000);
  });

  test('a bulb that moved to another port is found again by its MAC', async () => {
    const first = await startVirtualLifxBulbs({ count: 2 });
    sims.push(first);
    const driver = createLifxLanDriver({
      targets: [{ host: first.host, port: first.discoveryPort }],
      bindAddress: LOOPBACK,
      discoveryWindowMs: 150,
      rescanIntervalMs: 0,
      resendAfterMs: 100,
      probeIntervalMs: 50,
    });
    drivers.push(driver);
    await driver.discover();
    const before = driver.devices().map((d) => d.port);
    await first.close();
    // The same bulbs (same MACs) come back on new ports behind the same discovery port.
    const second = await startVirtualLifxBulbs({ count: 2, discoveryPort: first.discoveryPort });
    sims.push(second);
    const after = second.list().map((b) => b.port);
    expect(after).not.toEqual(before);
    await driver
      .setState([], { on: true, color: COLOR_PRESETS.green, brightness: 1, transitionMs: 0 })
      .catch(() => undefined);
    await until(() => driver.devices().every((d, i) => d.reachable && d.port === after[i]), 5000);
    await until(() => second.list().every((b) => b.color.hue === 21845), 3000);
  });

  test('at most 20 messages a second reach one bulb, and queued colours collapse to the newest', async () => {
    const { bulbs, driver } = await setup({ count: 1 });
    await driver.discover();
    const [bulb] = bulbs.list();
    for (let i = 0; i < 8; i += 1)
      await driver.setState([], {
        on: true,
        color: { name: 'h', hue: i * 40, saturation: 1 },
        brightness: 1,
        transitionMs: 0,
      });
    const times = writes(bulbs.log(bulb!.id)).map((r) => r.monotonicMs);
    expect(times).toHaveLength(16);
    // Sent ≥ 50 ms apart. Arrival times can bunch when the machine is busy, the average cannot;
    // without pacing every gap would be about a millisecond.
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(20);
    expect((times.at(-1)! - times[0]!) / gaps.length).toBeGreaterThanOrEqual(48);
    // 20 changes fired at once: the queue keeps only the newest colour.
    const before = writes(bulbs.log(bulb!.id)).length;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        driver.setState([], {
          on: true,
          color: { name: 'h', hue: i * 15, saturation: 1 },
          brightness: 1,
          transitionMs: 0,
        }),
      ),
    );
    const burst = writes(bulbs.log(bulb!.id)).slice(before);
    expect(burst.filter((r) => r.type === 'LightSetColor').length).toBeLessThanOrEqual(2);
    expect(bulbs.list()[0]!.color.hue).toBe(Math.round((285 * 65535) / 360));
  });
});
