import { type FastifyInstance } from 'fastify';
import { sendLightsPage } from '../lights-page/page.js';
import { registerLifxApiGuard } from './api-guard.js';
import { registerLifxApiRoutes } from './api-routes.js';
import { registerLifxControlRoutes } from './control-routes.js';
import { createLifxControl, type LifxSimControl } from './control.js';
import { createLifxState, type LifxSimOptions, resolveLifxSettings } from './state.js';

export interface LifxSim {
  plugin: (app: FastifyInstance) => Promise<void>;
  control: LifxSimControl;
}

/**
 * The LIFX HTTP API (reference §2): bulbs you can read back, selectors, colour strings, effects,
 * the real status codes and the 120-per-60-s budget with its `X-RateLimit-*` headers. Mount it
 * under a prefix (demo: /sims/lifx, so the API is /sims/lifx/v1); `GET /` is a live page of the
 * bulbs and `/_control/*` drives it (no token, not rate-limited, not logged).
 */
export function createLifxSim(options: LifxSimOptions = {}): LifxSim {
  const settings = resolveLifxSettings(options);
  const { now } = settings;
  const state = createLifxState(settings, options);
  const control = createLifxControl(state, settings);

  async function plugin(app: FastifyInstance): Promise<void> {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    app.get('/', async (_request, reply) => sendLightsPage(reply, 'LIFX simulator'));
    registerLifxControlRoutes(app, control, state);

    app.register(async (api) => {
      registerLifxApiGuard(api, state, now, app.prefix.length);
      registerLifxApiRoutes(api, state, now);
    });
  }

  return { plugin, control };
}
