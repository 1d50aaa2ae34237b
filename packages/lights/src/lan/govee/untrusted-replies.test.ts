import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { COLOR_PRESETS } from '@flaglight/core';
import { startVirtualGoveeDevices, type VirtualGoveeDevices } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { until } from '../../../test/fake-timers.js';
import type { DriverEvent } from '../../driver.js';
import {
  createGoveeLanDriver,
  GOVEE_LAN_MAX_DATAGRAM_BYTES,
  GOVEE_LAN_MAX_DEVICES,
  type GoveeLanDriver,
  type GoveeLanDriverOptions,
} from './driver.js';

// Every test here plays someone else on the LAN sending the driver scan replies it should not
// believe. On loopback 127.0.0.1 stands for "a device" and 127.0.0.2 for another machine.

const LOOPBACK = '127.0.0.1';
const OTHER = '127.0.0.2';
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const red = { on: true, color: COLOR_PRESETS.red, brightness: 1, transitionMs: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

interface Peer {
  socket: Socket;
  port: number;
  /** Every datagram it received (text), and the scans among them. */
  received: { text: string; from: RemoteInfo }[];
  scans: () => number;
  send(text: string, port: number, address?: string): Promise<void>;
}

/** A UDP socket on loopback that records what reaches it and, for each scan, calls `onScan`. */
async function startPeer(address: string, onScan?: (peer: Peer, from: RemoteInfo, n: number) => void) {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  const peer: Peer = {
    socket,
    port: socket.address().port,
    received: [],
    scans: () => peer.received.filter((r) => r.text.includes('"scan"')).length,
    send: (text, port, to = LOOPBACK) =>
      new Promise<void>((resolve, reject) => socket.send(text, port, to, (e) => (e ? reject(e) : resolve()))),
  };
  socket.on('message', (datagram, from) => {
    peer.received.push({ text: datagram.toString('utf8'), from });
    if (onScan && datagram.includes('"scan"')) onScan(peer, from, peer.scans());
  });
  closers.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return peer;
}

const scanReply = (data: Record<string, unknown>) => JSON.stringify({ msg: { cmd: 'scan', data } });
const forgedId = (i: number) =>
  `EE:EE:00:00:00:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 0xff).toString(16).padStart(2, '0')}`;

/** Many datagrams, a few at a time: loopback drops what a full receive buffer cannot take. */
async function flood(peer: Peer, texts: string[], port: number) {
  for (const [i, text] of texts.entries()) {
    await peer.send(text, port);
    if (i % 10 === 9) await sleep(2);
  }
}

function startDriver(options: Partial<GoveeLanDriverOptions> & Pick<GoveeLanDriverOptions, 'targets'>) {
  const logs: string[] = [];
  const events: DriverEvent[] = [];
  const driver: GoveeLanDriver = createGoveeLanDriver({
    ports: { listen: 0 },
    commandPortFromReply: true,
    bindAddress: LOOPBACK,
    scanWindowMs: 100,
    replyWindowMs: 150,
    rescanIntervalMs: 0,
    repeatAfterMs: 30,
    statusTimeoutMs: 100,
    minGapMs: 5,
    attempts: 1,
    onLog: (m) => logs.push(m),
    ...options,
  });
  driver.subscribe((e) => events.push(e));
  closers.push(() => driver.close());
  return { driver, logs, events };
}

async function startSim(count: number): Promise<VirtualGoveeDevices> {
  const sim = await startVirtualGoveeDevices({ count });
  closers.push(() => sim.close());
  return sim;
}

describe('Govee LAN replies from the LAN', () => {
  test('forged scan replies while no scan is outstanding add no device and get no command', async () => {
    const sim = await startSim(1);
    const { driver, logs } = startDriver({
      targets: [{ host: sim.host, port: sim.scanPort }],
      ports: { listen: sim.replyPort },
    });
    await driver.discover();
    await sleep(200); // the reply window (150 ms after the last scan request) has closed
    const forger = await startPeer(LOOPBACK);
    // The attack: 40 replies naming 40 devices at the forger's address, about 6 KB in all.
    const forged = Array.from({ length: 40 }, (_, i) =>
      scanReply({ ip: LOOPBACK, device: forgedId(i), sku: 'H6159', wifiVersionSoft: '1.02.03' }),
    );
    await flood(forger, forged, sim.replyPort);
    await until(() => driver.ignoredReplies().unrequested === 40);
    expect(driver.devices().map((d) => d.id)).toEqual([sim.list()[0]!.id]);
    expect((await driver.listDevices()).map((d) => d.id)).toEqual([sim.list()[0]!.id]);
    await driver.setState([], red);
    await sleep(50);
    expect(forger.received).toEqual([]);
    // Logged once, not 40 times.
    expect(logs.filter((l) => l.includes('nobody asked for'))).toHaveLength(1);
  });

  test('scan replies from an address that may not answer are ignored, even during a scan', async () => {
    const sim = await startSim(2);
    // Told that 127.0.0.1 may not answer: the simulator's real replies are refused too.
    const refused = startDriver({
      targets: [{ host: sim.host, port: sim.scanPort }],
      ports: { listen: sim.replyPort },
      allowedSources: [],
    });
    await refused.driver.discover();
    expect(refused.driver.devices()).toEqual([]);
    expect(refused.driver.ignoredReplies().source).toBeGreaterThanOrEqual(2);
    expect(refused.logs.filter((l) => l.includes('not a light on this network'))).toHaveLength(1);
    await refused.driver.close();

    // Allowed 127.0.0.1 only: another machine (127.0.0.2) sees the scan and answers 40 times.
    const forger = await startPeer(OTHER, (peer, from) => {
      for (let i = 0; i < 20; i += 1)
        void peer.send(scanReply({ ip: OTHER, device: forgedId(i), sku: 'H6159' }), from.port, from.address);
    });
    const { driver } = startDriver({
      targets: [
        { host: sim.host, port: sim.scanPort },
        { host: OTHER, port: forger.port },
      ],
      ports: { listen: sim.replyPort },
      allowedSources: [LOOPBACK],
      scanWindowMs: 200,
      replyWindowMs: 200,
    });
    await driver.discover();
    await until(() => driver.ignoredReplies().source === 40);
    expect(forger.scans()).toBe(2);
    expect(
      driver
        .devices()
        .map((d) => d.id)
        .sort(),
    ).toEqual(
      sim
        .list()
        .map((d) => d.id)
        .sort(),
    );
  });

  test('a reply naming another address gets commands at its source address only', async () => {
    // The device and a bystander at the same port on another address: commands go to the port
    // configured for commands (4003 on a real LAN), at the address the reply came from.
    const device = await startPeer(LOOPBACK, (peer, from) => {
      void peer.send(scanReply({ ip: OTHER, device: 'AA:BB:CC:DD:EE:FF:00:01', sku: 'H6159' }), from.port);
    });
    const bystander = await new Promise<Socket>((resolve) => {
      const s = createSocket('udp4');
      s.bind(device.port, OTHER, () => resolve(s));
    });
    const toBystander: string[] = [];
    bystander.on('message', (datagram) => toBystander.push(datagram.toString('utf8')));
    closers.push(() => new Promise<void>((resolve) => bystander.close(() => resolve())));

    const { driver, logs } = startDriver({
      targets: [{ host: LOOPBACK, port: device.port }],
      ports: { listen: 0, command: device.port },
      commandPortFromReply: false,
    });
    await driver.discover();
    expect(driver.devices()).toMatchObject([
      { id: 'AA:BB:CC:DD:EE:FF:00:01', address: LOOPBACK, port: device.port },
    ]);
    // It never answers the status read: the look fails after its one try, which is fine here.
    await driver.setState([], red).catch(() => undefined);
    await sleep(100);
    const commands = device.received.filter((r) => !r.text.includes('"scan"')).map((r) => JSON.parse(r.text));
    expect(commands.map((c: { msg: { cmd: string } }) => c.msg.cmd)).toEqual([
      'turn',
      'brightness',
      'colorwc',
      'colorwc',
      'devStatus',
    ]);
    expect(toBystander).toEqual([]);
    expect(driver.ignoredReplies().payloadIp).toBe(2);
    expect(logs.filter((l) => l.includes(`names ${OTHER} but answered from ${LOOPBACK}`))).toHaveLength(1);
  });

  test(`100 forged devices in one scan: at most ${GOVEE_LAN_MAX_DEVICES} are followed`, async () => {
    const forger = await startPeer(LOOPBACK, (peer, from, n) => {
      if (n !== 1) return;
      const forged = Array.from({ length: 100 }, (_, i) => scanReply({ device: forgedId(i), sku: 'H6159' }));
      void flood(peer, forged, from.port);
    });
    const { driver, logs } = startDriver({
      targets: [{ host: LOOPBACK, port: forger.port }],
      scanWindowMs: 600,
      replyWindowMs: 600,
    });
    await driver.discover();
    expect(GOVEE_LAN_MAX_DEVICES).toBe(64);
    expect(driver.devices()).toHaveLength(64);
    expect(driver.ignoredReplies().overCap).toBe(36);
    expect(logs.filter((l) => l.includes('devices known already'))).toHaveLength(1);
  });

  test('a device that stops answering scans is removed after the expiry, and added again when it answers', async () => {
    const sim = await startSim(2);
    const { driver, events } = startDriver({
      targets: [{ host: sim.host, port: sim.scanPort }],
      ports: { listen: sim.replyPort },
      scanWindowMs: 60,
      replyWindowMs: 60,
      rescanIntervalMs: 20,
      missedScans: 2,
      expireAfterScans: 4,
    });
    await driver.discover();
    const [leaving, staying] = sim.list();
    sim.setLanControl(leaving!.id, false);
    await until(() => driver.devices().every((d) => d.id !== leaving!.id), 3000);
    expect((await driver.listDevices()).map((d) => d.id)).toEqual([staying!.id]);
    expect(events).toContainEqual({
      type: 'warning',
      message: expect.stringMatching(/missed 4 scans: removed from the list/),
    });
    sim.setLanControl(leaving!.id, true);
    await until(() => driver.devices().some((d) => d.id === leaving!.id && d.reachable), 3000);
    await driver.setState([leaving!.id], red);
    expect(sim.get(leaving!.id)?.hex).toBe('#ff0000');
  });

  test('control characters and newlines in a reply give clean labels and log lines', async () => {
    const forger = await startPeer(LOOPBACK, (peer, from) => {
      const data = {
        device: 'D4:AD:FC:60:00:00:00:09\n2026-01-01T00:00:00Z [error] forged line\u001b[2J',
        sku: `\u202eH6159\r\n\u0000${'x'.repeat(300)}`,
        ip: `${OTHER}\n`,
        bleVersionSoft: '\u0007\u0007',
      };
      void peer.send(scanReply(data), from.port);
    });
    const { driver, logs } = startDriver({ targets: [{ host: LOOPBACK, port: forger.port }] });
    const [found] = await driver.discover();
    expect(found).toBeDefined();
    const [seen] = driver.devices();
    for (const text of [found!.id, found!.label, found!.name ?? '', seen!.sku, seen!.label])
      expect(text).not.toMatch(UNSAFE);
    // One line, at most 64 characters: the newline and the escape are gone.
    expect(found!.id).toBe('D4:AD:FC:60:00:00:00:092026-01-01T00:00:00Z [error] forged line[');
    expect(seen!.sku).toBe(`H6159${'x'.repeat(59)}`);
    expect(seen!.label).toBe(`Govee H6159${'x'.repeat(59)} ·FEDE`);
    // The ip it named is no plain address: ignored, the source is used.
    expect(seen!.address).toBe(LOOPBACK);
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) expect(line).not.toMatch(UNSAFE);
  });

  test(`a datagram over ${GOVEE_LAN_MAX_DATAGRAM_BYTES} bytes is ignored unread; one just under is read`, async () => {
    const reply = (id: string, size: number) => {
      const base = scanReply({ device: id, sku: 'H6159', pad: '' });
      return scanReply({ device: id, sku: 'H6159', pad: 'p'.repeat(size - base.length) });
    };
    const forger = await startPeer(LOOPBACK, (peer, from) => {
      void peer.send(reply('AA:00:00:00:00:00:00:01', GOVEE_LAN_MAX_DATAGRAM_BYTES + 1), from.port);
      void peer.send(reply('AA:00:00:00:00:00:00:02', 60_000), from.port);
      void peer.send(reply('AA:00:00:00:00:00:00:03', GOVEE_LAN_MAX_DATAGRAM_BYTES), from.port);
    });
    const { driver, logs } = startDriver({ targets: [{ host: LOOPBACK, port: forger.port }] });
    await driver.discover();
    expect(driver.devices().map((d) => d.id)).toEqual(['AA:00:00:00:00:00:00:03']);
    expect(driver.ignoredReplies().oversize).toBe(4);
    expect(logs.filter((l) => /ignored a \d+-byte datagram/.test(l))).toHaveLength(1);
  });
});
