import { describe, expect, test } from 'vitest';
import {
  addressBytes,
  isAllowedSource,
  isOnLocalSubnet,
  isPrivateAddress,
  sameAddress,
  type LocalInterface,
} from './reply-guard.js';

/** A laptop on a home Wi-Fi: loopback, one IPv4 /24, a link-local and a ULA IPv6 /64. */
const HOME: LocalInterface[] = [
  { address: '127.0.0.1', netmask: '255.0.0.0' },
  { address: '::1', netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' },
  { address: '192.168.1.23', netmask: '255.255.255.0' },
  { address: 'fe80::1c2b:3aff:fe4d:5e6f', netmask: 'ffff:ffff:ffff:ffff::' },
  { address: 'fd12:3456:789a:1::23', netmask: 'ffff:ffff:ffff:ffff::' },
];

describe('addresses as bytes', () => {
  test('IPv4, IPv6 with :: and zone, IPv4-mapped IPv6; anything else is null', () => {
    expect(addressBytes('192.168.1.5')).toEqual([192, 168, 1, 5]);
    expect(addressBytes('::ffff:192.168.1.5')).toEqual([192, 168, 1, 5]);
    expect(addressBytes('fe80::1%eth0')).toEqual([0xfe, 0x80, ...Array<number>(13).fill(0), 1]);
    expect(addressBytes('::')).toEqual(Array<number>(16).fill(0));
    expect(addressBytes('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    for (const bad of [
      '',
      'localhost',
      '192.168.1',
      '256.1.1.1',
      '1:::2',
      'fe80::1\n',
      '10.0.0.1 '.repeat(2),
    ])
      expect(addressBytes(bad)).toBeNull();
    expect(sameAddress('::FFFF:10.0.0.2', '10.0.0.2')).toBe(true);
    expect(sameAddress('fe80::0:1', 'FE80::1')).toBe(true);
    expect(sameAddress('10.0.0.2', '10.0.0.20')).toBe(false);
    expect(sameAddress('nonsense', 'nonsense')).toBe(false);
  });
});

describe('private and link-local addresses', () => {
  test.each([
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['172.16.0.1', true],
    ['172.31.255.254', true],
    ['172.15.0.1', false],
    ['172.32.0.1', false],
    ['192.168.0.1', true],
    ['192.169.0.1', false],
    ['169.254.10.20', true],
    ['127.0.0.1', false],
    ['0.0.0.0', false],
    ['8.8.8.8', false],
    ['100.64.0.1', false],
    ['224.0.0.251', false],
    ['255.255.255.255', false],
    ['fd00::1', true],
    ['fc00::1', true],
    ['fe80::1', true],
    ['febf::1', true],
    ['fec0::1', false],
    ['::1', false],
    ['2001:db8::1', false],
    ['::ffff:192.168.1.5', true],
    ['::ffff:8.8.8.8', false],
  ])('%s private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('local subnets', () => {
  test("an address is local when it shares an interface's network under its netmask", () => {
    expect(isOnLocalSubnet('192.168.1.77', HOME)).toBe(true);
    expect(isOnLocalSubnet('192.168.2.77', HOME)).toBe(false);
    expect(isOnLocalSubnet('fe80::aaaa:bbbb:cccc:dddd%wlan0', HOME)).toBe(true);
    expect(isOnLocalSubnet('fd12:3456:789a:1::99', HOME)).toBe(true);
    expect(isOnLocalSubnet('fd12:3456:789a:2::99', HOME)).toBe(false);
    // A /20 takes 10.1.0.0–10.1.15.255.
    const office = [{ address: '10.1.3.4', netmask: '255.255.240.0' }];
    expect(isOnLocalSubnet('10.1.15.200', office)).toBe(true);
    expect(isOnLocalSubnet('10.1.16.1', office)).toBe(false);
    // A zero netmask does not make the world local; IPv4 is never matched against an IPv6 interface.
    expect(isOnLocalSubnet('192.168.9.9', [{ address: '192.168.1.1', netmask: '0.0.0.0' }])).toBe(false);
    expect(isOnLocalSubnet('10.0.0.1', [{ address: 'fd00::1', netmask: 'ffff::' }])).toBe(false);
  });
});

describe('who may answer a scan', () => {
  const live = { allowed: [] as string[], interfaces: HOME };

  test('live: private and on a local subnet; loopback, remote subnets and public addresses refused', () => {
    expect(isAllowedSource('192.168.1.77', live)).toBe(true);
    expect(isAllowedSource('fe80::42%wlan0', live)).toBe(true);
    expect(isAllowedSource('192.168.2.77', live)).toBe(false);
    expect(isAllowedSource('10.0.0.5', live)).toBe(false);
    expect(isAllowedSource('127.0.0.1', live)).toBe(false);
    expect(isAllowedSource('::1', live)).toBe(false);
    expect(isAllowedSource('203.0.113.9', live)).toBe(false);
    expect(isAllowedSource('not an address', live)).toBe(false);
  });

  test('a configured target is accepted wherever it is, and only it', () => {
    const targets = { allowed: ['10.20.0.5', '127.0.0.1'], interfaces: HOME };
    expect(isAllowedSource('10.20.0.5', targets)).toBe(true);
    expect(isAllowedSource('10.20.0.6', targets)).toBe(false);
    expect(isAllowedSource('127.0.0.1', targets)).toBe(true);
    expect(isAllowedSource('::ffff:127.0.0.1', targets)).toBe(true);
    expect(isAllowedSource('127.0.0.2', targets)).toBe(false);
  });
});
