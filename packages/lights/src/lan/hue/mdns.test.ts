import { EventEmitter } from 'node:events';
import { Browser, type Service } from 'bonjour-service';
import { describe, expect, test } from 'vitest';
import { parseHueMdnsService } from './mdns.js';

// No multicast here: bonjour-service's browser is fed, in memory, an answer in the shape
// multicast-dns hands it for a square bridge's `_hue._tcp` announcement (PTR, SRV, TXT with
// bridgeid and modelid, A), as a bridge answers a PTR query (reference/lan-lights.md §2.1).
const NAME = 'Hue Bridge - 6A2B3D._hue._tcp.local';
const HOST = '001788fffe6a2b3d.local';
const answer = {
  type: 'response',
  answers: [{ name: '_hue._tcp.local', type: 'PTR', ttl: 4500, data: NAME }],
  additionals: [
    { name: NAME, type: 'SRV', ttl: 120, data: { priority: 0, weight: 0, port: 443, target: HOST } },
    {
      name: NAME,
      type: 'TXT',
      ttl: 4500,
      data: [Buffer.from('bridgeid=001788FFFE6A2B3D'), Buffer.from('modelid=BSB002')],
    },
    { name: HOST, type: 'A', ttl: 120, data: '192.168.1.20' },
    { name: HOST, type: 'AAAA', ttl: 120, data: 'fe80::217:88ff:fe6a:2b3d' },
  ],
};

function browse(packet: unknown, from = { address: '192.168.1.20', port: 5353 }): Service[] {
  const mdns = Object.assign(new EventEmitter(), { query: () => undefined });
  const seen: Service[] = [];
  const browser = new Browser(mdns, { type: 'hue', protocol: 'tcp' }, (service) => seen.push(service));
  mdns.emit('response', packet, from);
  browser.stop();
  return seen;
}

describe('Hue bridges over mDNS (recorded answers, no network)', () => {
  test('a _hue._tcp answer becomes a bridge with its id, model and https URL', () => {
    const [service] = browse(answer);
    expect(parseHueMdnsService(service!)).toEqual({
      bridgeId: '001788fffe6a2b3d',
      modelId: 'BSB002',
      name: 'Hue Bridge - 6A2B3D',
      address: '192.168.1.20',
      port: 443,
      url: 'https://192.168.1.20',
    });
  });

  test('no A record: the sender address; another port goes in the URL; junk TXT is no id', () => {
    const packet = {
      ...answer,
      additionals: [
        { name: NAME, type: 'SRV', ttl: 120, data: { priority: 0, weight: 0, port: 8443, target: HOST } },
        { name: NAME, type: 'TXT', ttl: 4500, data: [Buffer.from('bridgeid=nonsense')] },
      ],
    };
    const [service] = browse(packet, { address: '10.0.0.7', port: 5353 });
    expect(parseHueMdnsService(service!)).toMatchObject({
      bridgeId: null,
      modelId: null,
      address: '10.0.0.7',
      url: 'https://10.0.0.7:8443',
    });
    expect(parseHueMdnsService({ name: 'x', port: 443, addresses: ['fe80::1'] })).toBeNull();
  });

  test('other services are not Hue bridges', () => {
    const printer = JSON.parse(JSON.stringify(answer).replaceAll('_hue._tcp', '_ipp._tcp')) as unknown;
    expect(browse(printer)).toEqual([]);
  });
});
