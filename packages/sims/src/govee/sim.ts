import { type FastifyInstance } from 'fastify';
import { sendLightsPage } from '../lights-page/page.js';
import { registerGoveeApiGuard, registerGoveeApiRoutes } from './api-routes.js';
import { createGoveeControl, type GoveeSimControl, registerGoveeControlRoutes } from './control.js';
import { createGoveeState, type GoveeSimOptions, resolveGoveeSettings } from './state.js';

export interface GoveeSim {
  plugin: (app: FastifyInstance) => Promise<void>;
  control: GoveeSimControl;
}

/**
 * Govee's cloud platform API (reference §2.2, §3): devices with capabilities, control and state
 * calls checked against them, the `Govee-API-Key` header, the per-device minute and per-account
 * day budgets with their headers, and faults. Mount it under a prefix (demo: /sims/govee, so the
 * API is /sims/govee/router/api/v1); `GET /` is the live page and `/_control/*` drives it.
 */
export function createGoveeSim(options: GoveeSimOptions = {}): GoveeSim {
  const settings = resolveGoveeSettings(options);
  const state = createGoveeState(settings);
  const control = createGoveeControl(state, settings);

  async function plugin(app: FastifyInstance): Promise<void> {
    app.get('/', async (_request, reply) => sendLightsPage(reply, 'Govee cloud simulator'));
    registerGoveeControlRoutes(app, control);
    app.register(async (api) => {
      registerGoveeApiGuard(api, state, settings, app.prefix.length);
      registerGoveeApiRoutes(api, state);
    });
  }

  return { plugin, control };
}
