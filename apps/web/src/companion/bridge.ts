import type { DeviceLight } from '@flaglight/contract';
import { COMPANION_BRIDGE_HOST, COMPANION_BRIDGE_PORT } from '@flaglight/contract/limits';

/**
 * The companion's local bridge on this computer (DESIGN §9). Asked only when the user presses
 * Test on this computer: the browser may ask for permission to reach the local network first, and
 * a refusal or no answer is an ordinary outcome, not an error.
 */

/** How long the bridge may take to answer before "no companion answered". */
export const BRIDGE_TIMEOUT_MS = 5_000;

/** What the web app reads of `GET /api/status`; everything else is ignored. */
export interface BridgeStatus {
  version: string | null;
  linked: boolean;
  userCode: string | null;
  verificationUri: string | null;
  /** Where its stream is: following (or polling), waiting for a live session, or anything else. */
  stream: 'following' | 'waiting' | 'other';
  lights: DeviceLight[];
  /** How many lights it says it drives (its own `driven` flags); null when it does not say. */
  drivenCount: number | null;
}

export type BridgeCheck =
  | { kind: 'tested'; status: BridgeStatus }
  | { kind: 'not_linked'; status: BridgeStatus }
  | { kind: 'test_refused'; status: BridgeStatus; message: string }
  | { kind: 'no_answer' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** States of `stream` (or `stream.state`) that mean the companion follows the account's events. */
const FOLLOWING = /^(open|connected|live|streaming|following|polling)$/i;

function streamState(stream: unknown): BridgeStatus['stream'] {
  const state = isRecord(stream) ? stream.state : stream;
  if (state === true || (typeof state === 'string' && FOLLOWING.test(state))) return 'following';
  return state === 'waiting' ? 'waiting' : 'other';
}

function parseLight(value: unknown): DeviceLight | null {
  if (!isRecord(value)) return null;
  const { provider, id, label, reachable } = value;
  if (
    (provider !== 'lifx_lan' &&
      provider !== 'hue_local' &&
      provider !== 'govee_lan' &&
      provider !== 'nanoleaf' &&
      provider !== 'home_assistant' &&
      provider !== 'wled') ||
    typeof id !== 'string' ||
    id === ''
  )
    return null;
  return {
    provider,
    id,
    label: typeof label === 'string' ? label : id,
    reachable: reachable === true,
  };
}

/** Reads a status answer leniently (the companion may be another version); null when it is not one. */
export function parseBridgeStatus(value: unknown): BridgeStatus | null {
  if (!isRecord(value) || typeof value.linked !== 'boolean') return null;
  const raw: unknown[] = Array.isArray(value.lights) ? value.lights : [];
  const said = raw.every((light) => isRecord(light) && typeof light.driven === 'boolean');
  return {
    version: text(value.version),
    linked: value.linked,
    userCode: text(value.userCode),
    verificationUri: text(value.verificationUri),
    stream: value.linked ? streamState(value.stream) : 'other',
    lights: raw.map(parseLight).filter((light): light is DeviceLight => light !== null),
    drivenCount:
      said && raw.length > 0 ? raw.filter((light) => isRecord(light) && light.driven === true).length : null,
  };
}

/** The ports the account's online companions said their bridges listen on (`PUT /api/device/state`). */
let reportedPorts: readonly number[] = [];
/** The port a companion on this computer last answered on. */
let answeredPort: number | null = null;

/** Keeps the bridge ports the device list says the account's online companions use. */
export function setReportedBridgePorts(ports: readonly number[]): void {
  reportedPorts = [...new Set(ports)];
}

/**
 * The ports to ask, in order: the reported ones (the one that answered last first), then the
 * well-known one. A port no online companion reports any more is not asked.
 */
export function bridgePortsToAsk(): number[] {
  const reported = answeredPort !== null && reportedPorts.includes(answeredPort) ? [answeredPort] : [];
  return [...new Set([...reported, ...reportedPorts, COMPANION_BRIDGE_PORT])];
}

/**
 * Asks the companion on this computer: on each port it may listen on, one after another (a port
 * nothing answers on fails at once), until one answers. The port that answered is asked first next time.
 */
async function ask(
  fetchImpl: typeof fetch,
  path: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; body: unknown } | null> {
  for (const port of bridgePortsToAsk()) {
    const answer = await askPort(fetchImpl, port, path, init, timeoutMs);
    if (answer) {
      answeredPort = port;
      return answer;
    }
  }
  return null;
}

async function askPort(
  fetchImpl: typeof fetch,
  port: number,
  path: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; body: unknown } | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetchImpl(`${COMPANION_BRIDGE_HOST}:${port}${path}`, {
      ...init,
      signal: controller.signal,
      // Nothing of the app's travels to the local bridge: no cookies, no token.
      credentials: 'omit',
    });
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    return { status: res.status, body };
  } catch {
    // Refused permission, nothing listening, a time-out: all "no answer".
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks the companion on this computer for its status, then to play yellow on its lights.
 * Never throws: every outcome is a `BridgeCheck`.
 */
export async function checkThisComputer(
  fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
  timeoutMs = BRIDGE_TIMEOUT_MS,
): Promise<BridgeCheck> {
  const answer = await ask(fetchImpl, '/api/status', { method: 'GET' }, timeoutMs);
  const status = answer && answer.status === 200 ? parseBridgeStatus(answer.body) : null;
  if (!status) return { kind: 'no_answer' };
  if (!status.linked) return { kind: 'not_linked', status };
  const test = await ask(
    fetchImpl,
    '/api/test',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'yellow' }),
    },
    timeoutMs,
  );
  if (!test) return { kind: 'no_answer' };
  if (test.status < 200 || test.status >= 300) {
    const message = isRecord(test.body) ? text(test.body.error) : null;
    return { kind: 'test_refused', status, message: message ?? `The companion answered ${test.status}.` };
  }
  return { kind: 'tested', status };
}

/** How long the companion polls a Nanoleaf for its power button (`NANOLEAF_PAIRING_TIMEOUT_MS` in lights/lan). */
export const NANOLEAF_PAIRING_SECONDS = 60;

/** How long the web app waits for `POST /api/nanoleaf/pair`: that wait, then reading the device's name. */
export const NANOLEAF_PAIR_WAIT_MS = (NANOLEAF_PAIRING_SECONDS + 15) * 1_000;

export type NanoleafPairing =
  | { kind: 'paired'; name: string }
  /** The companion answered but did not pair (time-out, no controller found, bad address…). */
  | { kind: 'refused'; message: string }
  /** A companion from before Nanoleaf support: it has no such route. */
  | { kind: 'unsupported' }
  | { kind: 'no_answer' };

/**
 * Asks the companion on this computer to pair a Nanoleaf controller (the user holds its power
 * button 5–7 s meanwhile); `address` when its own search finds none. Never throws.
 */
export async function pairNanoleaf(
  address?: string,
  fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
  timeoutMs = NANOLEAF_PAIR_WAIT_MS,
): Promise<NanoleafPairing> {
  const target = address?.trim();
  const answer = await ask(
    fetchImpl,
    '/api/nanoleaf/pair',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(target ? { address: target } : {}),
    },
    timeoutMs,
  );
  if (!answer) return { kind: 'no_answer' };
  const body = isRecord(answer.body) ? answer.body : {};
  if (answer.status >= 200 && answer.status < 300) {
    return { kind: 'paired', name: text(body.name) ?? 'your Nanoleaf' };
  }
  if (answer.status === 404) return { kind: 'unsupported' };
  return { kind: 'refused', message: text(body.error) ?? `The companion answered ${answer.status}.` };
}

/** A light as the local bridge's status lists it, with the look the companion last sent it. */
export interface BridgeLight extends DeviceLight {
  lastColor: { name: string; css: string } | null;
}

export type BridgeLights =
  | { kind: 'answered'; linked: boolean; lights: BridgeLight[] }
  /** Not running here, a refused local-network permission, or not a companion. */
  | { kind: 'no_answer' };

function parseLastColor(value: unknown): BridgeLight['lastColor'] {
  if (!isRecord(value)) return null;
  const name = text(value.name);
  const css = text(value.css);
  return name && css ? { name, css } : null;
}

/**
 * Asks the companion on this computer which lights it drives, whether each answers, and the colour
 * it last sent (its `GET /api/status`); Settings' diagnostics read it after a click. Never throws.
 */
export async function readBridgeLights(
  fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
  timeoutMs = BRIDGE_TIMEOUT_MS,
): Promise<BridgeLights> {
  const answer = await ask(fetchImpl, '/api/status', { method: 'GET' }, timeoutMs);
  const status = answer && answer.status === 200 ? parseBridgeStatus(answer.body) : null;
  if (!answer || !status) return { kind: 'no_answer' };
  const raw = isRecord(answer.body) && Array.isArray(answer.body.lights) ? answer.body.lights : [];
  const lights = raw.flatMap((value: unknown) => {
    const light = parseLight(value);
    return light && isRecord(value) ? [{ ...light, lastColor: parseLastColor(value.lastColor) }] : [];
  });
  return { kind: 'answered', linked: status.linked, lights };
}

export type NanoleafForget =
  | { kind: 'forgotten'; name: string }
  /** The companion here has no controller with that id (paired on another computer, or gone already). */
  | { kind: 'not_paired_here' }
  | { kind: 'refused'; message: string }
  /** A companion from before this route. */
  | { kind: 'unsupported' }
  | { kind: 'no_answer' };

/** Asks the companion on this computer to unpair a Nanoleaf controller (its `POST /api/nanoleaf/forget`). Never throws. */
export async function forgetNanoleaf(
  id: string,
  fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
  timeoutMs = BRIDGE_TIMEOUT_MS,
): Promise<NanoleafForget> {
  const answer = await ask(
    fetchImpl,
    '/api/nanoleaf/forget',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) },
    timeoutMs,
  );
  if (!answer) return { kind: 'no_answer' };
  const body = isRecord(answer.body) ? answer.body : {};
  if (answer.status >= 200 && answer.status < 300) {
    return { kind: 'forgotten', name: text(body.name) ?? 'your Nanoleaf' };
  }
  // An older companion answers its generic "Not found" for a route it does not have.
  if (answer.status === 404) {
    const error = text(body.error);
    return error && error !== 'Not found' ? { kind: 'not_paired_here' } : { kind: 'unsupported' };
  }
  return { kind: 'refused', message: text(body.error) ?? `The companion answered ${answer.status}.` };
}
