import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, test } from 'vitest';
import { until } from '../../../test/fake-timers.js';
import { HUE_CERTIFICATE_CHANGED, hueHttpsRequest, PinnedBridgeAgent } from './https.js';

// A bare TLS server that counts the application bytes it receives: the pin must be checked
// before the request (with its hue-application-key) is written, not after.
let close: (() => void)[] = [];
afterEach(() => {
  for (const fn of close) fn();
  close = [];
});

async function tlsServer(commonName: string) {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keyType: 'ec', curve: 'P-256' });
  let received = '';
  const server = tls.createServer({ key: pems.private, cert: pems.cert }, (socket) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close.push(() => server.close());
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
}

const agent = (pin: ConstructorParameters<typeof PinnedBridgeAgent>[0]) => {
  const a = new PinnedBridgeAgent(pin);
  close.push(() => a.destroy());
  return a;
};
const get = (a: PinnedBridgeAgent, url: string) =>
  hueHttpsRequest(a, `${url}/clip/v2/resource/light`, {
    method: 'GET',
    headers: { 'hue-application-key': 'secret-key' },
    fallback: 'Failed to fetch lights',
  });

describe('pinned bridge connections', () => {
  test('a certificate for another bridge id gets not one byte of the request', async () => {
    const server = await tlsServer('001788fffe000001');
    await expect(get(agent({ bridgeId: '001788fffe000002' }), server.url)).rejects.toMatchObject({
      kind: 'auth',
      message: HUE_CERTIFICATE_CHANGED,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received()).toBe('');
  });

  test('the right id is trusted on first use, then held to that fingerprint', async () => {
    const server = await tlsServer('001788fffe000001');
    const pinned = agent({ bridgeId: '001788FFFE000001' });
    await expect(get(pinned, server.url)).resolves.toMatchObject({ status: 200, body: {} });
    await until(() => server.received().includes('hue-application-key: secret-key'));
    expect(pinned.pin.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    // Same id, another certificate (a swapped bridge or a machine in the middle): refused.
    const swapped = await tlsServer('001788fffe000001');
    await expect(get(agent({ ...pinned.pin }), swapped.url)).rejects.toMatchObject({ kind: 'auth' });
    expect(swapped.received()).toBe('');
  });
});
