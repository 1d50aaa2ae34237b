import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, test } from 'vitest';
import { startVirtualGoveeDevices, type VirtualGoveeDevices } from './govee-lan.js';

// The simulator spoken to with raw datagrams, as Govee's LAN guide writes them (reference §2.1).

let sims: VirtualGoveeDevices[] = [];
let sockets: Socket[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  for (const s of sockets) s.close();
  sims = [];
  sockets = [];
});

async function client(options: Parameters<typeof startVirtualGoveeDevices>[0] = {}) {
  const sim = await startVirtualGoveeDevices(options);
  sims.push(sim);
  const socket = createSocket('udp4');
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.bind(sim.replyPort, '127.0.0.1', resolve));
  const inbox: { json: { msg: { cmd: string; data: Record<string, unknown> } }; port: number }[] = [];
  socket.on('message', (datagram, from) =>
    inbox.push({ json: JSON.parse(datagram.toString()), port: from.port }),
  );
  const send = (port: number, cmd: string, data: unknown) =>
    socket.send(JSON.stringify({ msg: { cmd, data } }), port, '127.0.0.1');
  const settle = (ms = 60) => new Promise((resolve) => setTimeout(resolve, ms));
  return { sim, inbox, send, settle };
}

describe('virtual Govee devices', () => {
  test('a scan is answered by every device with LAN Control on, at the reply port, one without ip', async () => {
    const { sim, inbox, send, settle } = await client({ count: 3, omitIp: [2] });
    sim.setLanControl(sim.list()[1]!.id, false);
    send(sim.scanPort, 'scan', { account_topic: 'reserve' });
    await settle();
    const replies = inbox.map((m) => m.json.msg);
    expect(replies.map((r) => r.data.device).sort()).toEqual([sim.list()[0]!.id, sim.list()[2]!.id].sort());
    expect(replies.find((r) => r.data.device === sim.list()[0]!.id)?.data).toMatchObject({
      ip: '127.0.0.1',
      sku: 'H6159',
    });
    expect(replies.find((r) => r.data.device === sim.list()[2]!.id)?.data.ip).toBeUndefined();
    // Each reply comes from the device's own command port (loopback stands in for its IP).
    expect(inbox.map((m) => m.port).sort()).toEqual(
      [sim.list()[0]!.commandPort, sim.list()[2]!.commandPort].sort(),
    );
    // A scan without Govee's account_topic is not one.
    inbox.length = 0;
    send(sim.scanPort, 'scan', {});
    await settle();
    expect(inbox).toEqual([]);
  });

  test('turn, brightness and colorwc apply; kelvin ≠ 0 is white; devStatus answers; bad values are ignored', async () => {
    const { sim, inbox, send, settle } = await client({ count: 1 });
    const [device] = sim.list();
    send(device!.commandPort, 'colorwc', { color: { r: 0, g: 255, b: 0 }, colorTemInKelvin: 0 });
    send(device!.commandPort, 'brightness', { value: 40 });
    await settle();
    expect(sim.get(device!.id)).toMatchObject({ color: { r: 0, g: 255, b: 0 }, kelvin: 0, hex: '#006600' });
    send(device!.commandPort, 'colorwc', { color: { r: 1, g: 2, b: 3 }, colorTemInKelvin: 6500 });
    send(device!.commandPort, 'brightness', { value: 0 });
    send(device!.commandPort, 'turn', { value: 'on' });
    await settle();
    expect(sim.get(device!.id)).toMatchObject({
      color: { r: 0, g: 255, b: 0 },
      kelvin: 6500,
      brightness: 40,
    });
    expect(sim.log(device!.id).map((r) => r.ignored)).toEqual([null, null, null, 'invalid', 'invalid']);
    send(device!.commandPort, 'turn', { value: 0 });
    send(device!.commandPort, 'devStatus', {});
    await settle();
    expect(inbox.at(-1)!.json.msg).toEqual({
      cmd: 'devStatus',
      data: { onOff: 0, brightness: 40, color: { r: 0, g: 255, b: 0 }, colorTemInKelvin: 6500 },
    });
    expect(sim.get(device!.id)?.hex).toBe('#000000');
  });

  test('faults: loss, ignored commands that still answer status, duplicates, and a reboot on a new port', async () => {
    const { sim, inbox, send, settle } = await client({ count: 1 });
    const [device] = sim.list();
    sim.setFault(device!.id, { lossPercent: 100 });
    send(device!.commandPort, 'devStatus', {});
    await settle();
    expect(inbox).toEqual([]);
    sim.setFault(device!.id, { lossPercent: 0, ignoreCommands: true, duplicates: true });
    send(device!.commandPort, 'turn', { value: 0 });
    send(device!.commandPort, 'devStatus', {});
    await settle();
    expect(sim.get(device!.id)?.on).toBe(true);
    expect(inbox.filter((m) => m.json.msg.cmd === 'devStatus')).toHaveLength(2);
    const rebooted = await sim.reboot(device!.id);
    expect(rebooted.commandPort).not.toBe(device!.commandPort);
    sim.setFault(device!.id, { ignoreCommands: false, duplicates: false });
    send(rebooted.commandPort, 'turn', { value: 0 });
    await settle();
    expect(sim.get(device!.id)?.on).toBe(false);
  });
});
