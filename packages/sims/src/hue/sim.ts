import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { sendLightsPage } from '../lights-page/page.js';
import { applyFaults } from '../shared/faults.js';
import {
  HUE_FAULTS,
  pairApplication,
  registerClipRoutes,
  registerRemotePairingRoutes,
} from './clip-routes.js';
import { registerHueControlRoutes } from './control-routes.js';
import { createHueControl, type HueSimControl } from './control.js';
import { registerHueOAuthRoutes } from './oauth.js';
import { createHueState, type HueSimOptions, resolveHueSettings } from './state.js';

export interface HueSim {
  plugin: (app: FastifyInstance) => Promise<void>;
  control: HueSimControl;
  clientId: string;
  clientSecret: string;
}

/**
 * Philips Hue, both sides (reference §3): a bridge speaking CLIP v2 with link-button pairing,
 * and the remote API (OAuth authorize page and token endpoint, remote app key, `/route/clip/v2`).
 * Mount under a prefix (demo: /sims/hue). `GET /` is a live page of the lights; `/_control/*`
 * drives it.
 */
export function createHueSim(options: HueSimOptions = {}): HueSim {
  const settings = resolveHueSettings(options);
  const { now, clientId, clientSecret } = settings;
  const state = createHueState(settings);
  const control = createHueControl(state, settings);

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
      state.log.push({
        method: request.method,
        path,
        at: (request as FastifyRequest & { receivedAt?: number }).receivedAt ?? now(),
        status: reply.statusCode,
        body: request.body ?? null,
      });
      if (state.log.length > 100_000) state.log.splice(0, 50_000);
    });
    app.addHook('onRequest', async (request) => {
      (request as FastifyRequest & { receivedAt?: number }).receivedAt = now();
    });

    // Faults hit the light calls only (local `/clip/v2/...` and remote `/route/clip/v2/...`), not
    // OAuth or pairing, and after the offline check so a vanished bridge stays vanished.
    applyFaults(app, state.faults, HUE_FAULTS, (request) => {
      if (state.offline) return null;
      const path = request.url.slice(prefixLength).split('?')[0] ?? '';
      const clip = path.startsWith('/route/') ? path.slice('/route'.length) : path;
      return clip.startsWith('/clip/v2/') ? clip : null;
    });

    app.get('/', async (_request, reply) => sendLightsPage(reply, 'Hue simulator'));
    registerHueControlRoutes(app, control);

    // The local bridge.
    app.post('/api', async (request) => pairApplication(state, now, request.body, state.linkPressedAt, true));
    await app.register(async (bridge) => registerClipRoutes(bridge, state, now, false));

    // The remote API: OAuth, then link button, app key and CLIP v2 through /route.
    registerHueOAuthRoutes(app, state, settings);
    await app.register(async (remote) => registerRemotePairingRoutes(remote, state, now));
    await app.register(async (remote) => registerClipRoutes(remote, state, now, true), { prefix: '/route' });
  }

  return { plugin, control, clientId, clientSecret };
}
