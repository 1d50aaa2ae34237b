import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { sendLightsPage } from '../lights-page/page.js';
import { type Clock, systemClock } from '../shared/clock.js';
import {
  type ActiveFault,
  applyFaults,
  type FaultResponses,
  Faults,
  type FaultSpec,
  parseFaultSpec,
} from '../shared/faults.js';
import {
  applyLightPut,
  createHueLights,
  type HueSimLight,
  toClipConnectivity,
  toClipLight,
  xyToHex,
} from './lights.js';

export const DEMO_HUE_CLIENT_ID = 'demo-hue-client';
export const DEMO_HUE_CLIENT_SECRET = 'demo-hue-secret';
export const DEMO_HUE_APPLICATION_KEY = 'demo-hue-application-key';
export const HUE_DEMO_LIGHT_COUNT = 4;
/** The link button stays "pressed" this long (reference §3.1: pair within ~30 s). */
export const HUE_LINK_BUTTON_WINDOW_MS = 30_000;
export const HUE_ACCESS_TOKEN_TTL_S = 7 * 24 * 3600;
export const HUE_CODE_TTL_MS = 10 * 60_000;
/** The simulated bridge's id (lower-case hex, as its certificate CN). */
export const HUE_SIM_BRIDGE_ID = '001788fffe6a2b3c';

/** CLIP v2 error bodies (reference §3.3: `{errors: [{description}]}` with a 4xx/5xx). */
const HUE_FAULTS: FaultResponses = {
  unauthorized: {
    status: 401,
    contentType: 'application/json',
    body: JSON.stringify({ errors: [{ description: 'unauthorized user' }], data: [] }),
  },
  'rate-limit': {
    status: 429,
    contentType: 'application/json',
    body: JSON.stringify({ errors: [{ description: 'Too many requests' }], data: [] }),
  },
  'server-error': {
    status: 503,
    contentType: 'application/json',
    body: JSON.stringify({ errors: [{ description: 'service unavailable' }], data: [] }),
  },
};

export interface HueSimOptions {
  now?: Clock;
  lightCount?: number;
  clientId?: string;
  clientSecret?: string;
  /** The registered callback, used when the authorize request names none. */
  redirectUri?: string;
  /** Application keys the bridge already knows. Default `[DEMO_HUE_APPLICATION_KEY]`. */
  applicationKeys?: string[];
  accessTokenTtlSeconds?: number;
}

export interface HueLoggedRequest {
  method: string;
  path: string;
  at: number;
  status: number;
  body: unknown;
}

export interface HueLightView {
  id: string;
  label: string;
  on: boolean;
  brightness: number;
  xy: { x: number; y: number };
  hex: string;
  durationMs: number;
  effect: null;
}

export interface HueSimControl {
  lights(): HueLightView[];
  light(id: string): HueLightView | undefined;
  /** Presses the bridge's link button: `POST /api` pairs for the next 30 s. */
  pressLinkButton(): void;
  /** A light that dropped off the Zigbee network: its zigbee_connectivity says connectivity_issue. */
  setReachable(id: string, reachable: boolean): boolean;
  /** A light removed in the Hue app: it leaves the light list, and calls to it get 404. */
  removeLight(id: string): boolean;
  /** A light newly paired with the bridge: it joins the light list. */
  addLight(): HueLightView;
  /** A vanished bridge: local and remote light calls fail at the connection. */
  setOffline(offline: boolean): void;
  applicationKeys(): string[];
  /** Every access token stops working (as if expired); refresh tokens still do. */
  expireAccessTokens(): void;
  /** The bridge forgets an application key (as if removed in the Hue app): calls with it get 401. */
  revokeApplicationKey(key: string): boolean;
  /**
   * Misbehaviour of the CLIP v2 light calls, local and remote alike (`429` storms, `503`, slow
   * answers, cut bodies). `path` is below `/clip/v2/resource`'s parent, without `/route`, e.g.
   * `/clip/v2/resource/light`.
   */
  fault(spec: FaultSpec): ActiveFault;
  faults(): ActiveFault[];
  clearFaults(): void;
  requests(): HueLoggedRequest[];
  resetRequests(): void;
  reset(): void;
}

export interface HueSim {
  plugin: (app: FastifyInstance) => Promise<void>;
  control: HueSimControl;
  clientId: string;
  clientSecret: string;
}

type Body = Record<string, unknown>;
const asBody = (b: unknown): Body => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Body) : {});
const random = (bytes = 24) => crypto.randomBytes(bytes).toString('base64url');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Philips Hue, both sides (reference §3): a bridge speaking CLIP v2 with link-button pairing,
 * and the remote API (OAuth authorize page and token endpoint, remote app key, `/route/clip/v2`).
 * Mount under a prefix (demo: /sims/hue). `GET /` is a live page of the lights; `/_control/*`
 * drives it.
 */
export function createHueSim(options: HueSimOptions = {}): HueSim {
  const now = options.now ?? systemClock;
  const clientId = options.clientId ?? DEMO_HUE_CLIENT_ID;
  const clientSecret = options.clientSecret ?? DEMO_HUE_CLIENT_SECRET;
  const count = options.lightCount ?? HUE_DEMO_LIGHT_COUNT;
  const tokenTtl = options.accessTokenTtlSeconds ?? HUE_ACCESS_TOKEN_TTL_S;
  const initialKeys = options.applicationKeys ?? [DEMO_HUE_APPLICATION_KEY];

  let lights: HueSimLight[] = createHueLights(count, now());
  let appKeys = new Set(initialKeys);
  let linkPressedAt = -Infinity;
  let remoteLinkAt = -Infinity;
  let offline = false;
  let added = 0;
  let codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  let accessTokens = new Map<string, number>();
  let refreshTokens = new Set<string>();
  let log: HueLoggedRequest[] = [];
  const faults = new Faults();

  const view = (l: HueSimLight): HueLightView => ({
    id: l.id,
    label: l.name,
    on: l.on,
    brightness: l.brightness / 100,
    xy: { ...l.xy },
    hex: xyToHex(l.xy, l.brightness),
    durationMs: l.lastDurationMs,
    effect: null,
  });

  const control: HueSimControl = {
    lights: () => lights.map(view),
    light: (id) => {
      const l = lights.find((x) => x.id === id);
      return l && view(l);
    },
    pressLinkButton() {
      linkPressedAt = now();
    },
    setReachable(id, reachable) {
      const light = lights.find((l) => l.id === id);
      if (light) light.reachable = reachable;
      return light !== undefined;
    },
    removeLight(id) {
      const before = lights.length;
      lights = lights.filter((l) => l.id !== id);
      return lights.length !== before;
    },
    addLight() {
      // The next light of a bigger bridge, so its id and name are as stable as the first ones'.
      added += 1;
      const fresh = createHueLights(count + added, now()).at(-1)!;
      lights = [...lights, fresh];
      return view(fresh);
    },
    setOffline(next) {
      offline = next;
    },
    applicationKeys: () => [...appKeys],
    expireAccessTokens() {
      accessTokens = new Map();
    },
    revokeApplicationKey: (key) => appKeys.delete(key),
    fault: (spec) => faults.add(spec),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    requests: () => [...log],
    resetRequests() {
      log = [];
    },
    reset() {
      lights = createHueLights(count, now());
      appKeys = new Set(initialKeys);
      linkPressedAt = -Infinity;
      remoteLinkAt = -Infinity;
      offline = false;
      added = 0;
      codes = new Map();
      accessTokens = new Map();
      refreshTokens = new Set();
      log = [];
      faults.clear();
    },
  };

  const clipError = (reply: FastifyReply, status: number, description: string) =>
    reply.code(status).send({ errors: [{ description }], data: [] });

  function pair(body: unknown, linkAt: number, withClientKey: boolean) {
    const b = asBody(body);
    if (typeof b.devicetype !== 'string' || b.devicetype === '')
      return [{ error: { type: 5, address: '/', description: 'invalid/missing parameters in body' } }];
    if (now() - linkAt > HUE_LINK_BUTTON_WINDOW_MS)
      return [{ error: { type: 101, address: '', description: 'link button not pressed' } }];
    const username = crypto.randomUUID();
    appKeys.add(username);
    const success: Record<string, string> = { username };
    if (withClientKey && b.generateclientkey === true)
      success.clientkey = crypto.randomBytes(16).toString('hex').toUpperCase();
    return [{ success }];
  }

  function bearerOk(request: FastifyRequest): boolean {
    const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const expiresAt = m?.[1] ? accessTokens.get(m[1]) : undefined;
    return expiresAt !== undefined && now() < expiresAt;
  }

  function issueTokens() {
    const access = random();
    const refresh = random();
    accessTokens.set(access, now() + tokenTtl * 1000);
    refreshTokens.add(refresh);
    return { access_token: access, expires_in: tokenTtl, refresh_token: refresh, token_type: 'bearer' };
  }

  function registerClip(scope: FastifyInstance, requireBearer: boolean) {
    scope.addHook('onRequest', async (request, reply) => {
      if (offline) {
        // A bridge that vanished: the connection just drops.
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      if (requireBearer && !bearerOk(request))
        return reply.code(401).send({
          fault: {
            faultstring: 'Invalid Access Token',
            detail: { errorcode: 'keymanagement.service.invalid_access_token' },
          },
        });
      const key = request.headers['hue-application-key'];
      if (typeof key !== 'string' || key === '') return clipError(reply, 403, 'Forbidden');
      if (!appKeys.has(key)) return clipError(reply, 401, 'unauthorized user');
    });
    scope.get('/clip/v2/resource/light', async () => ({ errors: [], data: lights.map(toClipLight) }));
    scope.get('/clip/v2/resource/zigbee_connectivity', async () => ({
      errors: [],
      data: lights.map(toClipConnectivity),
    }));
    scope.get('/clip/v2/resource/bridge', async () => ({
      errors: [],
      data: [
        {
          type: 'bridge',
          id: '7a1c5e2f-3b4d-4e6f-8a9b-0c1d2e3f4a5b',
          bridge_id: HUE_SIM_BRIDGE_ID,
          owner: { rid: '7a1c5e2f-3b4d-4e6f-8a9b-0c1d2e3f4a5c', rtype: 'device' },
          time_zone: { time_zone: 'Europe/Amsterdam' },
        },
      ],
    }));
    scope.get('/clip/v2/resource/light/:id', async (request, reply) => {
      const light = lights.find((l) => l.id === (request.params as { id: string }).id);
      if (!light) return clipError(reply, 404, 'Not Found');
      return { errors: [], data: [toClipLight(light)] };
    });
    scope.put('/clip/v2/resource/light/:id', async (request, reply) => {
      const light = lights.find((l) => l.id === (request.params as { id: string }).id);
      if (!light) return clipError(reply, 404, 'Not Found');
      const error = applyLightPut(light, request.body, now());
      if (error) return clipError(reply, 400, error);
      return { errors: [], data: [{ rid: light.id, rtype: 'light' }] };
    });
  }

  async function plugin(app: FastifyInstance): Promise<void> {
    const prefixLength = app.prefix.length;
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    app.addHook('onResponse', async (request, reply) => {
      const path = request.url.slice(prefixLength).split('?')[0] ?? '';
      if (path.startsWith('/_control') || path === '/' || path === '') return;
      log.push({
        method: request.method,
        path,
        at: (request as FastifyRequest & { receivedAt?: number }).receivedAt ?? now(),
        status: reply.statusCode,
        body: request.body ?? null,
      });
      if (log.length > 100_000) log.splice(0, 50_000);
    });
    app.addHook('onRequest', async (request) => {
      (request as FastifyRequest & { receivedAt?: number }).receivedAt = now();
    });

    // Faults hit the light calls only (local `/clip/v2/...` and remote `/route/clip/v2/...`), not
    // OAuth or pairing, and after the offline check so a vanished bridge stays vanished.
    applyFaults(app, faults, HUE_FAULTS, (request) => {
      if (offline) return null;
      const path = request.url.slice(prefixLength).split('?')[0] ?? '';
      const clip = path.startsWith('/route/') ? path.slice('/route'.length) : path;
      return clip.startsWith('/clip/v2/') ? clip : null;
    });

    app.get('/', async (_request, reply) => sendLightsPage(reply, 'Hue simulator'));
    app.get('/_control/bulbs', async () => ({ bulbs: control.lights() }));
    app.get('/_control/lights', async () => ({ lights: control.lights() }));
    app.get('/_control/requests', async () => ({ requests: control.requests() }));
    app.delete('/_control/requests', async () => {
      control.resetRequests();
      return { ok: true };
    });
    app.post('/_control/link-button', async () => {
      control.pressLinkButton();
      return { ok: true };
    });
    app.post('/_control/reachable', async (request, reply) => {
      const b = asBody(request.body);
      if (typeof b.id !== 'string' || !control.setReachable(b.id, b.reachable !== false))
        return reply.code(404).send({ error: 'unknown light' });
      return { ok: true };
    });
    app.post('/_control/remove-light', async (request, reply) => {
      const id = asBody(request.body).id;
      if (typeof id !== 'string' || !control.removeLight(id))
        return reply.code(404).send({ error: 'unknown light' });
      return { ok: true };
    });
    app.post('/_control/add-light', async (_request, reply) => reply.code(201).send(control.addLight()));
    app.post('/_control/offline', async (request) => {
      control.setOffline(asBody(request.body).offline !== false);
      return { ok: true };
    });
    app.post('/_control/expire-tokens', async () => {
      control.expireAccessTokens();
      return { ok: true };
    });
    app.post('/_control/revoke-key', async (request, reply) => {
      const key = asBody(request.body).key;
      if (typeof key !== 'string' || !control.revokeApplicationKey(key))
        return reply.code(404).send({ error: 'unknown application key' });
      return { ok: true };
    });
    app.get('/_control/faults', async () => ({ faults: control.faults() }));
    app.post('/_control/faults', async (request, reply) => {
      try {
        return await reply.code(201).send(control.fault(parseFaultSpec(request.body)));
      } catch (error) {
        return reply.code(400).send({ error: error instanceof Error ? error.message : String(error) });
      }
    });
    app.delete('/_control/faults', async () => {
      control.clearFaults();
      return { ok: true };
    });
    app.post('/_control/reset', async () => {
      control.reset();
      return { ok: true };
    });

    // The local bridge.
    app.post('/api', async (request) => pair(request.body, linkPressedAt, true));
    await app.register(async (bridge) => registerClip(bridge, false));

    // The remote API: OAuth.
    app.get('/v2/oauth2/authorize', async (request, reply) => {
      const q = request.query as Record<string, string | undefined>;
      const redirectUri = q.redirect_uri ?? options.redirectUri;
      if (q.client_id !== clientId)
        return reply.code(400).type('text/html; charset=utf-8').send('<h1>Unknown client_id</h1>');
      if (q.response_type !== 'code' || !redirectUri)
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send('<h1>Invalid authorization request</h1>');
      const hidden = (name: string, value: string) =>
        `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
      const fields =
        hidden('client_id', clientId) + hidden('state', q.state ?? '') + hidden('redirect_uri', redirectUri);
      return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hue — authorise Flaglight</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;text-align:center}button{font-size:1rem;padding:.5rem 1.5rem;margin:.5rem}</style></head>
<body><h1>Allow Flaglight to control your Hue lights?</h1>
<p>Flaglight will be able to read and change your lights through the Hue remote API (simulator).</p>
<form method="get" action="decision">${fields}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></body></html>`);
    });
    app.get('/v2/oauth2/decision', async (request, reply) => {
      const q = request.query as Record<string, string | undefined>;
      if (q.client_id !== clientId || !q.redirect_uri)
        return reply.code(400).send({ error: 'invalid_request' });
      const target = new URL(q.redirect_uri);
      if (q.decision === 'allow') {
        const code = random(16);
        codes.set(code, { redirectUri: q.redirect_uri, expiresAt: now() + HUE_CODE_TTL_MS });
        target.searchParams.set('code', code);
      } else {
        target.searchParams.set('error', 'access_denied');
      }
      target.searchParams.set('state', q.state ?? '');
      return reply.redirect(target.toString(), 302);
    });
    app.post('/v2/oauth2/token', async (request, reply) => {
      const m = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      const [id, secret] = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8').split(':') : [];
      if (id !== clientId || secret !== clientSecret)
        return reply
          .code(401)
          .send({ error: 'invalid_client', error_description: 'Client authentication failed' });
      const body = asBody(request.body);
      if (body.grant_type === 'authorization_code') {
        const entry = typeof body.code === 'string' ? codes.get(body.code) : undefined;
        if (!entry || now() > entry.expiresAt)
          return reply
            .code(400)
            .send({ error: 'invalid_grant', error_description: 'Invalid authorization code' });
        codes.delete(body.code as string);
        return issueTokens();
      }
      if (body.grant_type === 'refresh_token') {
        const rt = body.refresh_token;
        if (typeof rt !== 'string' || !refreshTokens.has(rt))
          return reply.code(400).send({ error: 'invalid_grant', error_description: 'Invalid refresh token' });
        refreshTokens.delete(rt); // single use
        return issueTokens();
      }
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    });

    // The remote API: link button, app key and CLIP v2 through /route.
    await app.register(async (remote) => {
      remote.addHook('onRequest', async (request, reply) => {
        if (!request.url.includes('/route/api')) return;
        if (!bearerOk(request))
          return reply.code(401).send({ fault: { faultstring: 'Invalid Access Token' } });
      });
      remote.put('/route/api/0/config', async (request) => {
        if (asBody(request.body).linkbutton === true) remoteLinkAt = now();
        return [{ success: { '/config/linkbutton': true } }];
      });
      remote.post('/route/api', async (request) => pair(request.body, remoteLinkAt, false));
    });
    await app.register(async (remote) => registerClip(remote, true), { prefix: '/route' });
  }

  return { plugin, control, clientId, clientSecret };
}

export interface RunningHueSim {
  /** Origin; the bridge is `${url}/clip/v2/resource`, the remote API `${url}/v2/oauth2/...`, `${url}/route/...`. */
  url: string;
  control: HueSimControl;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** Runs the Hue simulator on its own port (tests, bench). */
export async function startHueSim(options: HueSimOptions & { port?: number } = {}): Promise<RunningHueSim> {
  const sim = createHueSim(options);
  const app = Fastify({ forceCloseConnections: true });
  await app.register(sim.plugin);
  const url = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  return {
    url,
    control: sim.control,
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    close: () => app.close(),
  };
}
