import { LightError } from '../../errors.js';
import { LanAnswerTooLargeError } from '../http-limits.js';
import { HUE_CERTIFICATE_CHANGED, hueHttpsRequest, PinnedBridgeAgent, type HueBridgePin } from './https.js';

/** The first bridge software with CLIP v2 (reference/lan-lights.md §2.1). */
export const HUE_CLIP_V2_MIN_SWVERSION = 1_948_086_000;
/** Pairing: the user has about 30 s after pressing the button; poll once a second for up to 60 s. */
export const HUE_PAIRING_TIMEOUT_MS = 60_000;
export const HUE_PAIRING_POLL_MS = 1_000;
export const HUE_DEVICE_TYPE_MAX = 40;
const LINK_BUTTON_NOT_PRESSED = 101;

export interface HueBridgeConfig {
  /** Lower case, as in the certificate's CN and CLIP v2 `bridge.bridge_id` (the config says it in upper case). */
  bridgeId: string;
  name: string;
  swversion: string;
  apiversion: string;
  modelid: string;
  /** The certificate's SHA-256 fingerprint seen on this connection (to pin at pairing). */
  fingerprint256: string | null;
}

export type HueConfigResult =
  { ok: true; config: Omit<HueBridgeConfig, 'fingerprint256'> } | { ok: false; error: string };

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * `GET /api/0/config` → the bridge's identity, or why Flaglight cannot use it: BSB001 (the round
 * bridge) and software older than 1948086000 have no CLIP v2.
 */
export function parseHueBridgeConfig(body: unknown): HueConfigResult {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const bridgeId = str(raw.bridgeid)?.toLowerCase() ?? null;
  const modelid = str(raw.modelid) ?? '';
  const swversion = str(raw.swversion) ?? '';
  if (!bridgeId || !/^[0-9a-f]{16}$/.test(bridgeId))
    return { ok: false, error: 'This address did not answer like a Philips Hue bridge.' };
  const software = Number(swversion);
  if (modelid === 'BSB001' || !Number.isFinite(software) || software < HUE_CLIP_V2_MIN_SWVERSION)
    return {
      ok: false,
      error:
        modelid === 'BSB001'
          ? 'This Hue bridge (the round v1 bridge, BSB001) has no CLIP v2 API, which Flaglight needs: use a square Hue bridge (v2) or a Hue Bridge Pro.'
          : `This Hue bridge's software (${swversion || 'unknown'}) is too old for CLIP v2: update it in the Hue app, then try again.`,
    };
  return {
    ok: true,
    config: {
      bridgeId,
      name: str(raw.name) ?? 'Hue bridge',
      swversion,
      apiversion: str(raw.apiversion) ?? '',
      modelid,
    },
  };
}

const base = (url: string) => url.replace(/\/+$/, '');

async function readConfig(agent: PinnedBridgeAgent, url: string): Promise<HueBridgeConfig> {
  const { status, body } = await hueHttpsRequest(agent, `${base(url)}/api/0/config`, {
    method: 'GET',
    fallback: 'The Hue bridge did not answer',
  });
  if (status !== 200)
    throw new LightError(status === 404 ? 'not-found' : 'server', 'The Hue bridge did not answer', status);
  const parsed = parseHueBridgeConfig(body);
  if (!parsed.ok) throw new LightError('not-configured', parsed.error);
  // The certificate must belong to the bridge that answered (its CN is the bridge id).
  if (agent.seenCommonName !== parsed.config.bridgeId) {
    const error = new LightError('auth', HUE_CERTIFICATE_CHANGED);
    error.cause = `the certificate names ${agent.seenCommonName ?? 'no bridge'}, the bridge says ${parsed.config.bridgeId}`;
    throw error;
  }
  return { ...parsed.config, fingerprint256: agent.seenFingerprint256 };
}

/**
 * Reads a bridge's identity (`GET <url>/api/0/config`, no key), e.g. `https://192.168.1.20` or the
 * simulator's `https://127.0.0.1:PORT`. A bridge without CLIP v2 is refused with a `LightError`
 * saying why. Pass the stored pin of a paired bridge to check it is still the same one.
 */
export async function fetchHueBridgeConfig(url: string, pin: HueBridgePin = {}): Promise<HueBridgeConfig> {
  const agent = new PinnedBridgeAgent({ ...pin }, 1);
  try {
    return await readConfig(agent, url);
  } finally {
    agent.destroy();
  }
}

/** What answers at an address, for a paired bridge that stopped answering at its own. */
export type HueBridgeAtAddress =
  /** The paired bridge: its id, and the certificate stored at pairing. */
  | { kind: 'same'; config: HueBridgeConfig }
  /**
   * A bridge that says it is the paired one with another certificate: the bridge replaced or reset,
   * or a device pretending to be it. Its key must not be sent there; pairing again decides.
   */
  | { kind: 'certificate-changed'; config: HueBridgeConfig }
  /** Another bridge, or not a bridge. */
  | { kind: 'other' }
  /** Nothing answered. */
  | { kind: 'silent' };

/**
 * Whether a paired bridge answers at `url` (a bridge that moved: its DHCP lease). Only its keyless
 * `/api/0/config` is read: over a connection pinned to the bridge id and the fingerprint stored at
 * pairing, then, when that is refused, without the pin only to tell a changed certificate from
 * another bridge. The application key is never sent here.
 */
export async function findPairedHueBridgeAt(
  url: string,
  pin: { bridgeId: string; fingerprint256: string | null },
): Promise<HueBridgeAtAddress> {
  const bridgeId = pin.bridgeId.toLowerCase();
  try {
    const config = await fetchHueBridgeConfig(url, { bridgeId, fingerprint256: pin.fingerprint256 });
    return config.bridgeId === bridgeId ? { kind: 'same', config } : { kind: 'other' };
  } catch (error) {
    if (!(error instanceof LightError)) return { kind: 'other' };
    if (error.kind === 'network' || error.kind === 'timeout') return { kind: 'silent' };
    if (error.message !== HUE_CERTIFICATE_CHANGED) return { kind: 'other' };
    const config = await fetchHueBridgeConfig(url).catch(() => null);
    return config?.bridgeId === bridgeId ? { kind: 'certificate-changed', config } : { kind: 'other' };
  }
}

export interface PairHueBridgeOptions {
  /** `flaglight#<computer>`, at most 40 characters (see {@link hueDeviceType}). */
  deviceType: string;
  timeoutMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
  /** Each time the bridge says the link button has not been pressed yet (error 101). */
  onWaiting?: (info: { elapsedMs: number; remainingMs: number }) => void;
}

export interface HuePairing {
  applicationKey: string;
  clientKey: string | null;
  bridgeId: string;
  fingerprint256: string;
}

/** `flaglight#<computer name>`, cut to the bridge's 40 characters. */
export function hueDeviceType(computer: string): string {
  const name = computer.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'pc';
  return `flaglight#${name}`.slice(0, HUE_DEVICE_TYPE_MAX);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Pairs with a bridge (reference §2.2): reads its identity, then `POST /api {devicetype,
 * generateclientkey: true}` once a `pollMs` until the user presses the link button (error 101 →
 * `onWaiting`, "Press the link button on your Hue bridge") or `timeoutMs` passes. The connection's
 * certificate is pinned from the first answer on (CN = bridge id); its fingerprint is returned to
 * store beside the key.
 */
export async function pairHueBridge(url: string, options: PairHueBridgeOptions): Promise<HuePairing> {
  const timeoutMs = options.timeoutMs ?? HUE_PAIRING_TIMEOUT_MS;
  const pollMs = options.pollMs ?? HUE_PAIRING_POLL_MS;
  const deviceType = options.deviceType;
  if (deviceType === '' || deviceType.length > HUE_DEVICE_TYPE_MAX)
    throw new LightError('bad-request', `The device type must be 1 to ${HUE_DEVICE_TYPE_MAX} characters`);
  const cancelled = () => new LightError('not-configured', 'Hue pairing cancelled');
  const agent = new PinnedBridgeAgent({}, 1);
  const started = Date.now();
  try {
    const config = await readConfig(agent, url);
    agent.pin.bridgeId = config.bridgeId;
    agent.pin.fingerprint256 = config.fingerprint256;
    for (;;) {
      if (options.signal?.aborted) throw cancelled();
      let answer: unknown;
      try {
        answer = (
          await hueHttpsRequest(agent, `${base(url)}/api`, {
            method: 'POST',
            body: { devicetype: deviceType, generateclientkey: true },
            fallback: 'The Hue bridge did not answer',
          })
        ).body;
      } catch (error) {
        // A changed certificate or an endless answer ends it; a bridge busy for a moment does not.
        if (error instanceof LanAnswerTooLargeError) throw error;
        if (error instanceof LightError && error.kind === 'auth') throw error;
        answer = null;
      }
      const first = (Array.isArray(answer) ? (answer[0] as unknown) : null) as {
        success?: { username?: unknown; clientkey?: unknown };
        error?: { type?: unknown; description?: unknown };
      } | null;
      const username = first?.success?.username;
      if (typeof username === 'string' && username !== '')
        return {
          applicationKey: username,
          clientKey: typeof first?.success?.clientkey === 'string' ? first.success.clientkey : null,
          bridgeId: config.bridgeId,
          fingerprint256: agent.pin.fingerprint256 ?? agent.seenFingerprint256 ?? '',
        };
      if (first?.error && first.error.type !== LINK_BUTTON_NOT_PRESSED)
        throw new LightError(
          'bad-request',
          `The Hue bridge refused pairing: ${typeof first.error.description === 'string' ? first.error.description : 'unknown error'}`,
        );
      const elapsedMs = Date.now() - started;
      const remainingMs = timeoutMs - elapsedMs;
      if (remainingMs <= 0)
        throw new LightError(
          'timeout',
          'The link button on the Hue bridge was not pressed in time. Try again.',
        );
      if (first?.error) options.onWaiting?.({ elapsedMs, remainingMs });
      await sleep(Math.min(pollMs, remainingMs), options.signal);
    }
  } finally {
    agent.destroy();
  }
}
