import { createSocket, type Socket } from 'node:dgram';
import { decodeLifxPacket, encodeLifxPacket, LIFX_SERVICE_UDP } from '@flaglight/core';
import { afterEach, expect, test } from 'vitest';
import { LIFX_LAN_MAX_BULBS } from './bulb.js';
import { createLifxLanDriver, type LifxLanDriver } from './driver.js';

// A stranger on the LAN answers the driver's discovery for hundreds of made-up bulbs (unicast on
// 127.0.0.1). Each datagram is bounded by UDP itself; what must stay bounded is what the driver keeps.

const LOOPBACK = '127.0.0.1';
let socket: Socket | null = null;
let driver: LifxLanDriver | null = null;
afterEach(async () => {
  await driver?.close();
  socket?.close();
  driver = null;
  socket = null;
});

test('answers for more made-up bulbs than a home has: no more than LIFX_LAN_MAX_BULBS are kept', async () => {
  const fake = createSocket('udp4');
  socket = fake;
  await new Promise<void>((resolve) => fake.bind(0, LOOPBACK, resolve));
  const fakePort = fake.address().port;
  // The replies are sent on timers, which a slow host may fire after the test closed the socket.
  let open = true;
  fake.once('close', () => (open = false));
  // Each of the scan's three GetService gets 150 new bulbs, 30 datagrams at a time: a burst
  // larger than the socket's receive buffer would be cut short by the kernel, not by the driver.
  let next = 0;
  const macOf = (k: number) =>
    `d0:73:d5:00:${[k >> 8, k & 0xff].map((b) => b.toString(16).padStart(2, '0')).join(':')}`;
  fake.on('message', (datagram, from) => {
    const { header, message } = decodeLifxPacket(new Uint8Array(datagram));
    if (message.type !== 'GetService') return;
    const first = next;
    next += 150;
    for (let batch = 0; batch < 5; batch += 1)
      setTimeout(() => {
        if (!open) return;
        for (let k = first + batch * 30; k < first + (batch + 1) * 30; k += 1) {
          const reply = encodeLifxPacket(
            { ...header, tagged: false, target: macOf(k), resRequired: false, ackRequired: false },
            { type: 'StateService', service: LIFX_SERVICE_UDP, port: fakePort },
          );
          fake.send(reply, from.port, from.address);
        }
      }, batch * 10);
  });
  driver = createLifxLanDriver({
    targets: [{ host: LOOPBACK, port: fake.address().port }],
    bindAddress: LOOPBACK,
    discoveryWindowMs: 300,
    rescanIntervalMs: 0,
    resendAfterMs: 20,
    attempts: 1,
    probeIntervalMs: 60_000,
  });
  const found = await driver.discover();
  expect(next).toBe(450);
  expect(found).toHaveLength(LIFX_LAN_MAX_BULBS);
});
