import { createSocket, type Socket } from 'node:dgram';
import {
  colorToHsbk,
  decodeLifxPacket,
  encodeLifxPacket,
  LIFX_WAVEFORM,
  type LifxMessage,
  type LifxPacket,
  skewRatioToWire,
} from '@flaglight/core';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startVirtualLifxBulbs, type VirtualLifxBulbs } from './lifx-bulbs.js';

const SOURCE = 0x47414c46;

/** A LIFX client on 127.0.0.1 that keeps every reply. */
class Client {
  readonly replies: { packet: LifxPacket; from: string }[] = [];
  private waiters: (() => void)[] = [];
  private constructor(readonly socket: Socket) {
    socket.on('message', (datagram, rinfo) => {
      this.replies.push({
        packet: decodeLifxPacket(new Uint8Array(datagram)),
        from: `${rinfo.address}:${rinfo.port}`,
      });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(): Promise<Client> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new Client(socket);
  }

  send(
    port: number,
    target: string,
    message: LifxMessage,
    flags: { ack?: boolean; res?: boolean; sequence: number },
  ) {
    const bytes = encodeLifxPacket(
      {
        tagged: target === '00:00:00:00:00:00',
        source: SOURCE,
        target,
        ackRequired: flags.ack ?? false,
        resRequired: flags.res ?? false,
        sequence: flags.sequence,
      },
      message,
    );
    return new Promise<void>((resolve, reject) =>
      this.socket.send(bytes, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Waits until `count` replies carry this sequence (no time limit: the test runner's timeout ends a hang). */
  async waitFor(sequence: number, count = 1) {
    for (;;) {
      const found = this.replies.filter((r) => r.packet.header.sequence === sequence);
      if (found.length >= count) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close() {
    return new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}

async function until(check: () => boolean) {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

let bulbs: VirtualLifxBulbs;
let client: Client;
beforeEach(async () => {
  bulbs = await startVirtualLifxBulbs({ count: 4 });
  client = await Client.open();
});
afterEach(async () => {
  await client.close();
  await bulbs.close();
});

describe('virtual LIFX bulbs over UDP on 127.0.0.1', () => {
  test('every socket is bound to loopback only', () => {
    expect(bulbs.host).toBe('127.0.0.1');
    expect(bulbs.list()).toHaveLength(4);
    for (const bulb of bulbs.list()) {
      expect(bulb.address).toBe('127.0.0.1');
      expect(bulb.port).toBeGreaterThan(0);
    }
  });

  test('one GetService to the discovery port finds every bulb, each naming its own port', async () => {
    await client.send(bulbs.discoveryPort, '00:00:00:00:00:00', { type: 'GetService' }, { sequence: 1 });
    const replies = await client.waitFor(1, 4);
    const found = replies.map(({ packet, from }) => {
      expect(packet.header.source).toBe(SOURCE);
      expect(packet.message.type).toBe('StateService');
      return {
        id: packet.header.target,
        address: from.split(':')[0],
        port: packet.message.type === 'StateService' ? packet.message.port : 0,
      };
    });
    expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      bulbs.list().map((b) => ({ id: b.id, address: '127.0.0.1', port: b.port })),
    );
    // Each bulb answers discovery at the port it named, too.
    const [first] = found;
    await client.send(first!.port, '00:00:00:00:00:00', { type: 'GetService' }, { sequence: 2 });
    const [again] = await client.waitFor(2);
    expect(again!.from).toBe(`127.0.0.1:${first!.port}`);
    expect(again!.packet.header.target).toBe(first!.id);
  });

  test('SetColor with ack_required is acknowledged and changes the bulb', async () => {
    const bulb = bulbs.list()[1]!;
    const red = colorToHsbk({ hue: 0, saturation: 1, brightness: 1 });
    await client.send(
      bulb.port,
      bulb.id,
      { type: 'LightSetColor', color: red, durationMs: 0 },
      { ack: true, sequence: 7 },
    );
    const [ack] = await client.waitFor(7);
    expect(ack!.packet.message).toEqual({ type: 'Acknowledgement' });
    expect(ack!.packet.header.target).toBe(bulb.id);
    expect(bulbs.get(bulb.id)!.color).toEqual(red);
    // Without res_required a Set gets no State: the next reply on the socket answers the Get.
    await client.send(bulb.port, bulb.id, { type: 'LightGet' }, { sequence: 8 });
    const [state] = await client.waitFor(8);
    expect(client.replies.filter((r) => r.packet.header.sequence === 7)).toHaveLength(1);
    expect(state!.packet.message).toMatchObject({
      type: 'LightState',
      color: red,
      // SetColor leaves the power as it was (this bulb starts off).
      power: bulb.power,
      label: bulb.label,
    });
  });

  test('res_required on a Set answers the State (before the change), power and label too', async () => {
    const bulb = bulbs.list()[0]!;
    const before = bulb.color;
    const blue = colorToHsbk({ hue: 240, saturation: 1, brightness: 0.5 });
    await client.send(
      bulb.port,
      bulb.id,
      { type: 'LightSetColor', color: blue, durationMs: 0 },
      { res: true, sequence: 3 },
    );
    const [state] = await client.waitFor(3);
    expect(state!.packet.message).toMatchObject({ type: 'LightState', color: before });
    await client.send(
      bulb.port,
      bulb.id,
      { type: 'LightSetPower', level: 0, durationMs: 0 },
      { res: true, sequence: 4 },
    );
    expect((await client.waitFor(4))[0]!.packet.message).toEqual({ type: 'LightStatePower', level: 65535 });
    await client.send(bulb.port, bulb.id, { type: 'LightGetPower' }, { sequence: 5 });
    expect((await client.waitFor(5))[0]!.packet.message).toEqual({ type: 'LightStatePower', level: 0 });
    await client.send(bulb.port, bulb.id, { type: 'GetLabel' }, { sequence: 6 });
    expect((await client.waitFor(6))[0]!.packet.message).toEqual({ type: 'StateLabel', label: bulb.label });
    expect(bulbs.get(bulb.id)).toMatchObject({ on: false, color: blue });
  });

  test('SetWaveformOptional is recorded with its parameters and shows on the bulb', async () => {
    const bulb = bulbs.list()[2]!;
    const message: LifxMessage = {
      type: 'LightSetWaveformOptional',
      transient: true,
      color: { hue: 0, saturation: 65535, brightness: 0, kelvin: 3500 },
      periodMs: 500,
      cycles: 6,
      skewRatio: skewRatioToWire(0.5),
      waveform: LIFX_WAVEFORM.PULSE,
      setHue: false,
      setSaturation: false,
      setBrightness: true,
      setKelvin: false,
    };
    await client.send(bulb.port, bulb.id, message, { ack: true, sequence: 9 });
    await client.waitFor(9);
    const seen = bulbs.get(bulb.id)!;
    expect(seen.lastWaveform).toMatchObject({
      waveformName: 'PULSE',
      transient: true,
      periodMs: 500,
      cycles: 6,
      skewRatio: 0,
      skew: expect.closeTo(0.5, 4) as number,
      set: { hue: false, saturation: false, brightness: true, kelvin: false },
    });
    expect(bulbs.log(bulb.id).map((entry) => entry.type)).toEqual(['LightSetWaveformOptional']);
    expect(bulbs.log(bulb.id)[0]).toMatchObject({
      typeNumber: 119,
      source: SOURCE,
      sequence: 9,
      ignored: null,
    });
  });

  test('an unknown type gets StateUnhandled', async () => {
    const bulb = bulbs.list()[0]!;
    await client.send(
      bulb.port,
      bulb.id,
      { type: 'Unknown', typeNumber: 506, payload: new Uint8Array() },
      { sequence: 11 },
    );
    expect((await client.waitFor(11))[0]!.packet.message).toEqual({
      type: 'StateUnhandled',
      unhandledType: 506,
    });
  });

  test('a packet-loss fault drops datagrams unanswered and unapplied', async () => {
    const bulb = bulbs.list()[3]!;
    bulbs.setFault(bulb.id, { dropPercent: 100 });
    const green = colorToHsbk({ hue: 120, saturation: 1, brightness: 1 });
    await client.send(
      bulb.port,
      bulb.id,
      { type: 'LightSetColor', color: green, durationMs: 0 },
      { ack: true, sequence: 20 },
    );
    await until(() => bulbs.log(bulb.id).length === 1);
    expect(bulbs.log(bulb.id)[0]!.ignored).toBe('dropped');
    bulbs.setFault(bulb.id, { dropPercent: 0 });
    await client.send(bulb.port, bulb.id, { type: 'LightGet' }, { sequence: 21 });
    const [state] = await client.waitFor(21);
    expect(client.replies.some((r) => r.packet.header.sequence === 20)).toBe(false);
    expect(state!.packet.message).not.toMatchObject({ color: green });
  });

  test('an offline bulb is silent, also to discovery; a slow one still answers', async () => {
    const [off, slow] = bulbs.list();
    bulbs.setFault(off!.id, { offline: true });
    bulbs.setFault(slow!.id, { delayMs: 20 });
    await client.send(bulbs.discoveryPort, '00:00:00:00:00:00', { type: 'GetService' }, { sequence: 30 });
    await client.send(off!.port, off!.id, { type: 'LightGet' }, { sequence: 31 });
    const answered = await client.waitFor(30, 3);
    await until(() => bulbs.log(off!.id).length === 2);
    expect(bulbs.log(off!.id).map((e) => e.ignored)).toEqual(['offline', 'offline']);
    bulbs.setFault(off!.id, { offline: false });
    await client.send(off!.port, off!.id, { type: 'LightGet' }, { sequence: 32 });
    await client.waitFor(32);
    expect(answered.map((r) => r.packet.header.target)).not.toContain(off!.id);
    expect(answered.map((r) => r.packet.header.target)).toContain(slow!.id);
    expect(client.replies.filter((r) => r.packet.header.sequence === 31)).toHaveLength(0);
  });

  test('closing frees every port', async () => {
    const ports = [bulbs.discoveryPort, ...bulbs.list().map((b) => b.port)];
    await bulbs.close();
    for (const port of ports) {
      const socket = createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
  });
});

test('a running waveform shows in the current colour and a transient one returns to the start', async () => {
  let clock = 1_000;
  const sim = await startVirtualLifxBulbs({ count: 1, now: () => clock });
  const lan = await Client.open();
  try {
    const [bulb] = sim.list();
    await lan.send(
      bulb!.port,
      bulb!.id,
      {
        type: 'LightSetWaveformOptional',
        transient: true,
        color: { hue: 0, saturation: 0, brightness: 0, kelvin: 3500 },
        periodMs: 500,
        cycles: 6,
        skewRatio: 0,
        waveform: LIFX_WAVEFORM.PULSE,
        setHue: false,
        setSaturation: false,
        setBrightness: true,
        setKelvin: false,
      },
      { ack: true, sequence: 1 },
    );
    await lan.waitFor(1);
    clock = 1_100; // first half of a period: the waveform's colour (brightness 0)
    expect(sim.get(bulb!.id)).toMatchObject({ waveformRunning: true, color: { brightness: 0 } });
    clock = 1_300; // second half: back to the start colour
    expect(sim.get(bulb!.id)!.color.brightness).toBe(65535);
    clock = 4_000; // six periods done
    expect(sim.get(bulb!.id)).toMatchObject({ waveformRunning: false, color: bulb!.color });
  } finally {
    await lan.close();
    await sim.close();
  }
});
