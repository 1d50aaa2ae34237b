import { type FastifyInstance } from 'fastify';
import { parseFaultSpec } from '../shared/faults.js';
import { type HueSimControl } from './control.js';
import { asBody } from './state.js';

/** `/_control/*`: drive the Hue simulator over HTTP (e2e tests, the live page, demo mode). See README. */
export function registerHueControlRoutes(app: FastifyInstance, control: HueSimControl): void {
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
}
