import { Bonjour } from 'bonjour-service';
import type { MdnsServiceRecord } from '../hue/mdns.js';
import { NANOLEAF_DEFAULT_PORT } from './http.js';

export const NANOLEAF_MDNS_TIMEOUT_MS = 3_000;
/** Anyone on the LAN can announce records: one search keeps at most this many controllers. */
export const NANOLEAF_MDNS_MAX_FOUND = 64;

/** A controller announced over mDNS (`_nanoleafapi._tcp`, reference §1 "Discovery"). */
export interface NanoleafCandidate {
  /** TXT `id` (changes on a factory reset), or null. */
  deviceId: string | null;
  /** TXT `md`, e.g. NL42. */
  model: string | null;
  name: string;
  host: string;
  port: number;
}

const isIpv4 = (a: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(a);

/**
 * One `_nanoleafapi._tcp` answer → a controller to offer, or null without an IPv4 address (the
 * IPv6 link-local one some advertise is skipped: reference §1). The SRV port is used, never a
 * hard-coded 16021 unless the record has none.
 */
export function parseNanoleafMdnsService(service: MdnsServiceRecord): NanoleafCandidate | null {
  const txt = (typeof service.txt === 'object' && service.txt !== null ? service.txt : {}) as Record<
    string,
    unknown
  >;
  const text = (v: unknown) =>
    typeof v === 'string' && v !== '' ? v : v instanceof Uint8Array ? new TextDecoder().decode(v) : null;
  const host =
    (service.addresses ?? []).find(isIpv4) ??
    (service.referer?.address && isIpv4(service.referer.address) ? service.referer.address : null);
  if (!host) return null;
  return {
    deviceId: text(txt.id),
    model: text(txt.md),
    name: service.name ?? 'Nanoleaf',
    host,
    port: typeof service.port === 'number' && service.port > 0 ? service.port : NANOLEAF_DEFAULT_PORT,
  };
}

/**
 * Looks for Nanoleaf controllers with mDNS (`_nanoleafapi._tcp`, multicast 224.0.0.251:5353) for
 * `timeoutMs`. Only for a scan the user starts (`--lan-scan`): never in tests or demo mode, which
 * pass addresses.
 */
export function discoverNanoleafMdns(options: { timeoutMs?: number } = {}): Promise<NanoleafCandidate[]> {
  const timeoutMs = options.timeoutMs ?? NANOLEAF_MDNS_TIMEOUT_MS;
  return new Promise((resolve) => {
    const found = new Map<string, NanoleafCandidate>();
    const bonjour = new Bonjour({}, () => undefined);
    const browser = bonjour.find({ type: 'nanoleafapi', protocol: 'tcp' }, (service) => {
      const candidate = parseNanoleafMdnsService(service);
      if (candidate && found.size < NANOLEAF_MDNS_MAX_FOUND)
        found.set(`${candidate.host}:${candidate.port}`, candidate);
    });
    setTimeout(() => {
      browser.stop();
      bonjour.destroy();
      resolve([...found.values()]);
    }, timeoutMs);
  });
}
