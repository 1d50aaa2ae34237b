import { Bonjour } from 'bonjour-service';
import type { MdnsServiceRecord } from '../hue/mdns.js';
import { WLED_DEFAULT_PORT, type WledAddress } from './http.js';

export const WLED_MDNS_TIMEOUT_MS = 3_000;
/** Anyone on the LAN can announce records: one search keeps at most this many devices. */
export const WLED_MDNS_MAX_FOUND = 64;

const isIpv4 = (a: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(a);

/**
 * One `_wled._tcp` answer → the device's address, or null without an IPv4 address. The SRV port is
 * used (80 when the record has none); the MAC (TXT `mac`) is read from `/json/info` later, not trusted here.
 */
export function parseWledMdnsService(service: MdnsServiceRecord): WledAddress | null {
  const host =
    (service.addresses ?? []).find(isIpv4) ??
    (service.referer?.address && isIpv4(service.referer.address) ? service.referer.address : null);
  if (!host) return null;
  return {
    host,
    port: typeof service.port === 'number' && service.port > 0 ? service.port : WLED_DEFAULT_PORT,
  };
}

/**
 * Looks for WLED devices with mDNS (`_wled._tcp`, multicast 224.0.0.251:5353) for `timeoutMs`. Only
 * for a scan the user starts (`--lan-scan`): never in tests or demo mode, which pass addresses.
 */
export function discoverWledMdns(options: { timeoutMs?: number } = {}): Promise<WledAddress[]> {
  const timeoutMs = options.timeoutMs ?? WLED_MDNS_TIMEOUT_MS;
  return new Promise((resolve) => {
    const found = new Map<string, WledAddress>();
    const bonjour = new Bonjour({}, () => undefined);
    const browser = bonjour.find({ type: 'wled', protocol: 'tcp' }, (service) => {
      const address = parseWledMdnsService(service);
      if (address && found.size < WLED_MDNS_MAX_FOUND) found.set(`${address.host}:${address.port}`, address);
    });
    setTimeout(() => {
      browser.stop();
      bonjour.destroy();
      resolve([...found.values()]);
    }, timeoutMs);
  });
}
