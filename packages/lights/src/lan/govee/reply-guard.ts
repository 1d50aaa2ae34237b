import { lookup } from 'node:dns/promises';
import { isIP, isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';

/** One address of this computer and its netmask (as `os.networkInterfaces()` lists them). */
export interface LocalInterface {
  address: string;
  netmask: string;
}

/** Who may answer a scan: addresses named outright, and private ones on a local subnet. */
export interface SourceRule {
  /** Accepted whatever they are (the configured scan targets; tests and demo: 127.0.0.1). */
  allowed: readonly string[];
  interfaces: readonly LocalInterface[];
}

/** An address as bytes (4 for IPv4, 16 for IPv6; an IPv4-mapped IPv6 address as IPv4), or null. */
export function addressBytes(address: string): number[] | null {
  const text = address.toLowerCase().replace(/%.*$/, '');
  if (isIPv4(text)) return text.split('.').map(Number);
  if (isIP(text) !== 6) return null;
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (isIPv4(group)) {
        const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
        return [(a << 8) | b, (c << 8) | d];
      }
      return [parseInt(group, 16)];
    });
  };
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const words = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = words.flatMap((word) => [word >> 8, word & 0xff]);
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

/**
 * Private (10/8, 172.16/12, 192.168/16), IPv4 link-local (169.254/16), IPv6 unique local (fc00::/7)
 * or IPv6 link-local (fe80::/10): where a light on a home network can be. Loopback is not.
 */
export function isPrivateAddress(address: string): boolean {
  const b = addressBytes(address);
  if (!b) return false;
  const [b0 = 0, b1 = 0] = b;
  if (b.length === 4)
    return (
      b0 === 10 ||
      (b0 === 172 && (b1 & 0xf0) === 16) ||
      (b0 === 192 && b1 === 168) ||
      (b0 === 169 && b1 === 254)
    );
  return (b0 & 0xfe) === 0xfc || (b0 === 0xfe && (b1 & 0xc0) === 0x80);
}

/** Whether the address is on the subnet of one of this computer's addresses (address & netmask). */
export function isOnLocalSubnet(address: string, interfaces: readonly LocalInterface[]): boolean {
  const b = addressBytes(address);
  if (!b) return false;
  return interfaces.some((local) => {
    const own = addressBytes(local.address);
    const mask = addressBytes(local.netmask);
    if (!own || !mask || own.length !== b.length || mask.length !== b.length) return false;
    // A zero netmask would make the whole internet "local".
    if (mask.every((m) => m === 0)) return false;
    return b.every((byte, i) => (byte & mask[i]!) === (own[i]! & mask[i]!));
  });
}

const sameBytes = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether two texts name one address (`::ffff:10.0.0.2` is `10.0.0.2`). */
export function sameAddress(a: string, b: string): boolean {
  const [x, y] = [addressBytes(a), addressBytes(b)];
  return x !== null && y !== null && sameBytes(x, y);
}

/**
 * Whether a scan reply from this address may add or move a device: an address named in the rule,
 * or a private/link-local one on a local interface's subnet. Anything else (a public address, a
 * remote subnet, loopback not configured) is refused.
 */
export function isAllowedSource(address: string, rule: SourceRule): boolean {
  const b = addressBytes(address);
  if (!b) return false;
  if (rule.allowed.some((allowed) => sameAddress(allowed, address))) return true;
  return isPrivateAddress(address) && isOnLocalSubnet(address, rule.interfaces);
}

/** This computer's addresses now (they change when it joins another network). */
export function readLocalInterfaces(): LocalInterface[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map(({ address, netmask }) => ({ address, netmask })),
  );
}

/** The scan targets' hosts as addresses: IP literals as they are, host names looked up (failures left out). */
export async function resolveHosts(hosts: readonly string[]): Promise<string[]> {
  const resolved = await Promise.all(
    [...new Set(hosts)].map(async (host) => {
      if (isIP(host)) return [host];
      try {
        return (await lookup(host, { all: true })).map((entry) => entry.address);
      } catch {
        return [];
      }
    }),
  );
  return resolved.flat();
}
