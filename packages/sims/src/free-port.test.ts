import { createServer, type Server } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { findFreeTcpPort } from './free-port.js';

const held: Server[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
/** The fraction that makes the picker choose `port` (20,000 + 12,768 × fraction). */
const pick = (port: number) => (port - 20_000 + 0.5) / 12_768;

test('a free TCP port is below the ephemeral range, and a server can listen on it', async () => {
  const port = await findFreeTcpPort();
  expect(port).toBeGreaterThanOrEqual(20_000);
  expect(port).toBeLessThan(32_768);
  held.push(await listen(port));
});

test('a port a server listens on is passed over; one handed out already is never handed out again', async () => {
  const listened = await findFreeTcpPort();
  held.push(await listen(listened));
  const next = listened === 32_767 ? 20_000 : listened + 1;
  const choices = [pick(listened), pick(next)];
  expect(await findFreeTcpPort(() => choices.shift() ?? 0)).toBe(next);
  // Nothing listens on `next`, but this process gave it out a moment ago.
  const after = next === 32_767 ? 20_000 : next + 1;
  const again = [pick(next), pick(after)];
  expect(await findFreeTcpPort(() => again.shift() ?? 0)).toBe(after);
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

test('it says so when no port it tried was free', async () => {
  const taken = await findFreeTcpPort();
  held.push(await listen(taken));
  await expect(findFreeTcpPort(() => pick(taken))).rejects.toThrow(/no free TCP port found in 50 tries/);
});
