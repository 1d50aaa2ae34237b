import { createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { findFreeTcpPort } from './free-port.js';
import { bindUdpSocket, closeUdpSocket, findFreeUdpPort } from './lan/udp-device-set.js';

/** Ports held by a listener or a socket until the test ends. */
const held: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((release) => release()));
});

const listenTcp = (port: number) =>
  new Promise<() => Promise<void>>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(() => new Promise((done) => server.close(() => done()))));
  });
const bindUdp = async (port: number) => {
  const socket = await bindUdpSocket(port);
  return () => closeUdpSocket(socket);
};

/** The fraction that makes the picker choose `port` (20,000 + 12,768 × fraction). */
const pick = (port: number) => (port - 20_000 + 0.5) / 12_768;
const after = (port: number) => (port === 32_767 ? 20_000 : port + 1);

describe.each([
  { kind: 'TCP', find: findFreeTcpPort, hold: listenTcp },
  { kind: 'UDP', find: findFreeUdpPort, hold: bindUdp },
])('a free $kind port', ({ kind, find, hold }) => {
  test('is below the ephemeral range, and can be taken', async () => {
    const port = await find();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
    held.push(await hold(port));
  });

  test('a port in use is passed over for the next one chosen', async () => {
    const taken = await find();
    held.push(await hold(taken));
    const choices = [pick(taken), pick(after(taken))];
    expect(await find(() => choices.shift() ?? 0)).toBe(after(taken));
  });

  test('it says so when no port it tried was free', async () => {
    const taken = await find();
    held.push(await hold(taken));
    await expect(find(() => pick(taken))).rejects.toThrow(
      new RegExp(`no free ${kind} port found in 50 tries`),
    );
  });
});

test('a port handed out already is never handed out again, even with nothing on it', async () => {
  const given = await findFreeTcpPort();
  const choices = [pick(given), pick(after(given))];
  expect(await findFreeTcpPort(() => choices.shift() ?? 0)).toBe(after(given));
});

test('four asked for at once are four different ports', async () => {
  const ports = await Promise.all([
    findFreeTcpPort(),
    findFreeTcpPort(),
    findFreeTcpPort(),
    findFreeTcpPort(),
  ]);
  expect(new Set(ports).size).toBe(4);
});
