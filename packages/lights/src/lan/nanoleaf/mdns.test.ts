import { EventEmitter } from 'node:events';
import { Browser, type Service } from 'bonjour-service';
import { describe, expect, test } from 'vitest';
import { parseNanoleafMdnsService } from './mdns.js';

// No multicast here: bonjour-service's browser is fed, in memory, an answer in the shape
// multicast-dns hands it for a Shapes controller's `_nanoleafapi._tcp` announcement (PTR, SRV on
// 16021, TXT with md, srcvers and id, A and a link-local AAAA), reference nanoleaf-govee.md §1.
const NAME = 'Shapes 4A1B._nanoleafapi._tcp.local';
const HOST = 'Shapes-4A1B.local';
const answer = {
  type: 'response',
  answers: [{ name: '_nanoleafapi._tcp.local', type: 'PTR', ttl: 4500, data: NAME }],
  additionals: [
    { name: NAME, type: 'SRV', ttl: 120, data: { priority: 0, weight: 0, port: 16021, target: HOST } },
    {
      name: NAME,
      type: 'TXT',
      ttl: 4500,
      data: [Buffer.from('md=NL42'), Buffer.from('srcvers=9.2.4'), Buffer.from('id=5A:2C:91:0F:3E:77')],
    },
    { name: HOST, type: 'AAAA', ttl: 120, data: 'fe80::5c2c:91ff:fe0f:3e77' },
    { name: HOST, type: 'A', ttl: 120, data: '192.168.1.31' },
  ],
};

function browse(
  packet: unknown,
  type = 'nanoleafapi',
  from = { address: '192.168.1.31', port: 5353 },
): Service[] {
  const mdns = Object.assign(new EventEmitter(), { query: () => undefined });
  const seen: Service[] = [];
  const browser = new Browser(mdns, { type, protocol: 'tcp' }, (service) => seen.push(service));
  mdns.emit('response', packet, from);
  browser.stop();
  return seen;
}

describe('Nanoleaf controllers over mDNS (recorded answers, no network)', () => {
  test('a _nanoleafapi._tcp answer becomes a controller at its IPv4 address and SRV port', () => {
    const [service] = browse(answer);
    expect(parseNanoleafMdnsService(service!)).toEqual({
      deviceId: '5A:2C:91:0F:3E:77',
      model: 'NL42',
      name: 'Shapes 4A1B',
      host: '192.168.1.31',
      port: 16021,
    });
  });

  test('another port is kept; no A record: the sender; IPv6 only: not offered', () => {
    const packet = {
      ...answer,
      additionals: [
        { name: NAME, type: 'SRV', ttl: 120, data: { priority: 0, weight: 0, port: 16022, target: HOST } },
      ],
    };
    const [service] = browse(packet, 'nanoleafapi', { address: '10.0.0.9', port: 5353 });
    expect(parseNanoleafMdnsService(service!)).toMatchObject({ host: '10.0.0.9', port: 16022, model: null });
    expect(parseNanoleafMdnsService({ name: 'x', port: 16021, addresses: ['fe80::1'] })).toBeNull();
  });

  test('the HomeKit service (_nanoleafms._tcp) is not the OpenAPI', () => {
    const homekit = JSON.parse(
      JSON.stringify(answer).replaceAll('_nanoleafapi._tcp', '_nanoleafms._tcp'),
    ) as unknown;
    expect(browse(homekit)).toEqual([]);
  });
});
