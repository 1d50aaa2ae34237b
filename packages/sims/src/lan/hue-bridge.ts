import crypto, { X509Certificate } from 'node:crypto';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { generate } from 'selfsigned';
import { applyLightPut } from '../hue/lights.js';
import {
  clipLight,
  createLocalHueLights,
  type LanLight,
  parseSignaling,
  type LocalHueLightView,
  type LocalHueSignal,
  viewLocalHueLight,
} from './hue-bridge-lights.js';
import { LAN_SIM_HOST } from './lifx-bulbs.js';

export { LOCAL_HUE_SIGNAL_VALUES, type LocalHueLightView, type LocalHueSignal } from './hue-bridge-lights.js';

/** The link button opens pairing for this long (lan-lights.md §2.2). */
export const LOCAL_HUE_LINK_WINDOW_MS = 30_000;
/** Light commands a real bridge handles per second (§2.4); more are counted as over the rate. */
export const LOCAL_HUE_LIGHT_COMMANDS_PER_S = 10;
const DEFAULT_MAC = '00:17:88:6a:2b:3d';
const LOG_LIMIT = 1000;

export interface LocalHueCommand {
  at: number;
  monotonicMs: number;
  lightId: string;
  body: unknown;
  status: number;
}

export interface LocalHueBridgeView {
  id: string;
  url: string;
  port: number;
  fingerprint256: string;
  linkButton: boolean;
  applications: number;
  commands: { total: number; overRate: number };
  lights: LocalHueLightView[];
}

export interface LocalHueBridgeOptions {
  /** 0 = ephemeral. */
  port?: number;
  now?: () => number;
  /** The bridge's MAC; its id is MAC[0..2] + fffe + MAC[3..5]. */
  mac?: string;
  /** The name its config answers (the one set in the Hue app), as it is: tests give it odd ones. */
  name?: string;
}

export interface LocalHueBridge {
  /** Lower-case bridge id: the certificate's CN. */
  id: string;
  url: string;
  port: number;
  /** The certificate (PEM) and its SHA-256 fingerprint, for clients that pin it. */
  certificatePem: string;
  fingerprint256: string;
  pressLinkButton(): void;
  view(): LocalHueBridgeView;
  /** Light PUTs, oldest first. */
  commands(): LocalHueCommand[];
  /** The next `times` light PUTs are answered 503, as by an overloaded bridge (lan-lights.md §3.5). */
  failNextLightCommands(times?: number): void;
  /**
   * The bridge gets another address (a DHCP lease ran out): its open connections are cut, the old
   * port goes silent, and after `silentMs` (0: at once) it answers at `port` (0 = another ephemeral
   * one) with the same id, certificate, application keys and lights. `url` and `port` say the new
   * address once it answers there.
   */
  move(port?: number, options?: { silentMs?: number }): Promise<{ url: string; port: number }>;
  reset(): void;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

export function bridgeIdFromMac(mac: string): string {
  const hex = mac.replace(/:/g, '').toLowerCase();
  return `${hex.slice(0, 6)}fffe${hex.slice(6)}`;
}

/** A self-signed EC certificate whose CN is the bridge id (no subjectAltName, like the real one). */
async function createBridgeCertificate(id: string, now: () => number) {
  const pems = await generate(
    [
      { name: 'commonName', value: id },
      { name: 'organizationName', value: 'Philips Hue' },
      { name: 'countryName', value: 'NL' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      notBeforeDate: new Date(now() - 24 * 3600_000),
      notAfterDate: new Date(now() + 365 * 24 * 3600_000),
      extensions: [{ name: 'basicConstraints', cA: false }],
    },
  );
  return { pems, fingerprint256: new X509Certificate(pems.cert).fingerprint256 };
}

/** What `/api/0/config` answers without a key. */
function bridgeConfig(name: string, mac: string, id: string) {
  return {
    name,
    datastoreversion: '172',
    swversion: '1970084010',
    apiversion: '1.70.0',
    mac,
    bridgeid: id.toUpperCase(),
    factorynew: false,
    replacesbridgeid: null,
    modelid: 'BSB002',
    starterkitid: '',
  };
}

/** Cuts every connection, stays silent `silentMs`, then listens again at `port` (0 = any free one). */
async function relisten(server: Server, port: number, silentMs: number): Promise<AddressInfo> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  if (silentMs > 0) await new Promise((resolve) => setTimeout(resolve, silentMs));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LAN_SIM_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}

type Applications = Map<string, { devicetype: string; clientkey: string }>;

/** `POST /api`: a new application key while the link button's window is open (lan-lights.md §2.2). */
function pairApplication(requestBody: unknown, linkOpen: boolean, apps: Applications) {
  const body = isObject(requestBody) ? requestBody : {};
  const { devicetype } = body;
  if (typeof devicetype !== 'string' || devicetype === '' || devicetype.length > 40)
    return [
      {
        error: { type: 7, address: '/devicetype', description: 'invalid value for parameter, devicetype' },
      },
    ];
  if (!linkOpen) return [{ error: { type: 101, address: '', description: 'link button not pressed' } }];
  const username = crypto.randomBytes(30).toString('base64url').slice(0, 40);
  const clientkey = crypto.randomBytes(16).toString('hex').toUpperCase();
  apps.set(username, { devicetype, clientkey });
  return [{ success: body.generateclientkey === true ? { username, clientkey } : { username } }];
}

/** A light PUT's body applied to the light: null when it took, else the CLIP error (a 400). */
function applyLightCommand(light: LanLight, requestBody: unknown, at: number): string | null {
  const { signaling, ...rest } = isObject(requestBody) ? requestBody : { invalid: true };
  let signal: LocalHueSignal | undefined;
  if (signaling !== undefined) {
    if (!light.signaling) return "device does not support 'signaling'";
    const parsed = parseSignaling(signaling, at);
    if (typeof parsed === 'string') return parsed;
    signal = parsed;
  }
  const error = 'invalid' in rest ? 'request body must be a JSON object' : applyLightPut(light, rest, at);
  if (error) return error;
  if (signal) light.lastSignal = signal;
  return null;
}

/**
 * A Philips Hue bridge on the LAN (lan-lights.md §2): HTTPS on 127.0.0.1 with a self-signed EC
 * certificate whose CN is the bridge id (no subjectAltName, like the real one), `/api/0/config`
 * without a key, link-button pairing, CLIP v2 lights (the fourth without `signaling`) with
 * `signaling`, and a count of light commands against the ~10/s a real bridge handles.
 */
export async function startLocalHueBridge(options: LocalHueBridgeOptions = {}): Promise<LocalHueBridge> {
  const now = options.now ?? Date.now;
  const mac = options.mac ?? DEFAULT_MAC;
  const id = bridgeIdFromMac(mac);
  const { pems, fingerprint256 } = await createBridgeCertificate(id, now);

  const newLights = () => createLocalHueLights(now());
  let lights = newLights();
  let linkButtonAt = -Infinity;
  const apps: Applications = new Map();
  let log: LocalHueCommand[] = [];
  let total = 0;
  let overRate = 0;
  let failing = 0;

  const clipError = (reply: FastifyReply, status: number, description: string) =>
    reply.code(status).send({ errors: [{ description }], data: [] });

  const app = Fastify({ https: { key: pems.private, cert: pems.cert } });

  const config = () => bridgeConfig(options.name ?? 'Flaglight LAN bridge', mac, id);
  app.get('/api/0/config', async () => config());
  app.get('/api/config', async () => config());

  app.post('/api', async (request) =>
    pairApplication(request.body, now() - linkButtonAt <= LOCAL_HUE_LINK_WINDOW_MS, apps),
  );

  app.register(async (clip) => {
    clip.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['hue-application-key'];
      if (typeof key !== 'string' || !apps.has(key)) return clipError(reply, 403, 'unauthorized user');
    });
    clip.get('/clip/v2/resource/light', async () => ({
      errors: [],
      data: lights.map((light) => clipLight(light, now())),
    }));
    clip.get('/clip/v2/resource/light/:id', async (request, reply) => {
      const light = lights.find((l) => l.id === (request.params as { id: string }).id);
      if (!light) return clipError(reply, 404, 'Not Found');
      return { errors: [], data: [clipLight(light, now())] };
    });
    clip.get('/clip/v2/resource/bridge', async () => ({
      errors: [],
      data: [{ type: 'bridge', id: '7a1c5e2f-3b4d-4e6f-8a9b-0c1d2e3f4a6b', bridge_id: id }],
    }));
    clip.put('/clip/v2/resource/light/:id', async (request, reply) => {
      const at = now();
      const light = lights.find((l) => l.id === (request.params as { id: string }).id);
      const record = (status: number) => {
        log.push({
          at,
          monotonicMs: performance.now(),
          lightId: light?.id ?? '',
          body: request.body,
          status,
        });
        if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
      };
      if (!light) {
        record(404);
        return clipError(reply, 404, 'Not Found');
      }
      total += 1;
      if (failing > 0) {
        failing -= 1;
        record(503);
        return clipError(reply, 503, 'service unavailable');
      }
      if (log.filter((c) => c.status < 300 && at - c.at < 1000).length >= LOCAL_HUE_LIGHT_COMMANDS_PER_S)
        overRate += 1;
      const error = applyLightCommand(light, request.body, at);
      if (error) {
        record(400);
        return clipError(reply, 400, error);
      }
      record(200);
      return { errors: [], data: [{ rid: light.id, rtype: 'light' }] };
    });
  });

  await app.listen({ port: options.port ?? 0, host: LAN_SIM_HOST });
  const bound = app.server.address() as AddressInfo;
  let port = bound.port;
  let url = `https://${bound.address}:${port}`;

  return {
    id,
    get url() {
      return url;
    },
    get port() {
      return port;
    },
    certificatePem: pems.cert,
    fingerprint256,
    pressLinkButton() {
      linkButtonAt = now();
    },
    view: () => ({
      id,
      url,
      port,
      fingerprint256,
      linkButton: now() - linkButtonAt <= LOCAL_HUE_LINK_WINDOW_MS,
      applications: apps.size,
      commands: { total, overRate },
      lights: lights.map(viewLocalHueLight),
    }),
    commands: () => [...log],
    failNextLightCommands(times = 1) {
      failing = times;
    },
    async move(next = 0, { silentMs = 0 } = {}) {
      const moved = await relisten(app.server, next, silentMs);
      port = moved.port;
      url = `https://${moved.address}:${port}`;
      return { url, port };
    },
    reset() {
      failing = 0;
      lights = newLights();
      linkButtonAt = -Infinity;
      log = [];
      total = 0;
      overRate = 0;
    },
    async close() {
      await app.close();
    },
  };
}
