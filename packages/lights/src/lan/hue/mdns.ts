import { Bonjour } from 'bonjour-service';

export const HUE_MDNS_TIMEOUT_MS = 3_000;

/** A bridge announced over mDNS (`_hue._tcp`, reference/lan-lights.md §2.1). */
export interface HueBridgeCandidate {
  /** Lower case; from TXT `bridgeid`, or null when the TXT record did not say. */
  bridgeId: string | null;
  modelId: string | null;
  name: string;
  address: string;
  port: number;
  /** What `fetchHueBridgeConfig` and `pairHueBridge` take. */
  url: string;
}

/** The parts of a bonjour-service `Service` this reads. */
export interface MdnsServiceRecord {
  name?: string;
  host?: string;
  port?: number;
  txt?: unknown;
  addresses?: string[];
  referer?: { address?: string };
}

const isIpv4 = (a: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(a);

/**
 * One `_hue._tcp` answer → a bridge to offer, or null when it has no usable address. Prefers an
 * IPv4 address from the A records, then the sender's address; TXT keys `bridgeid`, `modelid`.
 */
export function parseHueMdnsService(service: MdnsServiceRecord): HueBridgeCandidate | null {
  const txt = (typeof service.txt === 'object' && service.txt !== null ? service.txt : {}) as Record<
    string,
    unknown
  >;
  const text = (v: unknown) =>
    typeof v === 'string' && v !== '' ? v : v instanceof Uint8Array ? new TextDecoder().decode(v) : null;
  const address =
    (service.addresses ?? []).find(isIpv4) ??
    (service.referer?.address && isIpv4(service.referer.address) ? service.referer.address : null);
  if (!address) return null;
  const port = typeof service.port === 'number' && service.port > 0 ? service.port : 443;
  const bridgeId = text(txt.bridgeid)?.toLowerCase() ?? null;
  return {
    bridgeId: bridgeId && /^[0-9a-f]{16}$/.test(bridgeId) ? bridgeId : null,
    modelId: text(txt.modelid),
    name: service.name ?? 'Hue bridge',
    address,
    port,
    url: port === 443 ? `https://${address}` : `https://${address}:${port}`,
  };
}

/**
 * Looks for Hue bridges on the LAN with mDNS (`_hue._tcp`, multicast 224.0.0.251:5353) for
 * `timeoutMs`. Only for a scan the user starts: never in tests or demo mode, which pass bridge URLs.
 */
export function discoverHueBridgesMdns(options: { timeoutMs?: number } = {}): Promise<HueBridgeCandidate[]> {
  const timeoutMs = options.timeoutMs ?? HUE_MDNS_TIMEOUT_MS;
  return new Promise((resolve) => {
    const found = new Map<string, HueBridgeCandidate>();
    const bonjour = new Bonjour({}, () => undefined);
    const browser = bonjour.find({ type: 'hue', protocol: 'tcp' }, (service) => {
      const candidate = parseHueMdnsService(service);
      if (candidate) found.set(candidate.bridgeId ?? candidate.url, candidate);
    });
    setTimeout(() => {
      browser.stop();
      bonjour.destroy();
      resolve([...found.values()]);
    }, timeoutMs);
  });
}
