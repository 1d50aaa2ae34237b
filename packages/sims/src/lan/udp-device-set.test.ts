import type { Socket } from 'node:dgram';
import { afterEach, expect, test } from 'vitest';
import { bindUdpSocket, closeUdpSocket, findFreeUdpPort } from './udp-device-set.js';

const held: Socket[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map(closeUdpSocket));
});

test('a free UDP port is below the ephemeral range, and the client can bind it', async () => {
  const port = await findFreeUdpPort();
  expect(port).toBeGreaterThanOrEqual(20_000);
  expect(port).toBeLessThan(32_768);
  held.push(await bindUdpSocket(port));
});

test('a port that is taken is passed over for the next one chosen', async () => {
  // Fractions that pick 20,000 + 12,768 × fraction: the first lands on the held port.
  const taken = await findFreeUdpPort();
  held.push(await bindUdpSocket(taken));
  const pick = (port: number) => (port - 20_000 + 0.5) / 12_768;
  const other = taken === 32_767 ? 20_000 : taken + 1;
  const choices = [pick(taken), pick(other)];
  expect(await findFreeUdpPort(() => choices.shift() ?? 0)).toBe(other);
});

test('it says so when no port it tried was free', async () => {
  const taken = await findFreeUdpPort();
  held.push(await bindUdpSocket(taken));
  const always = (taken - 20_000 + 0.5) / 12_768;
  await expect(findFreeUdpPort(() => always)).rejects.toThrow(/no free UDP port found in 50 tries/);
});
