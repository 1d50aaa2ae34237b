import { type FastifyInstance } from 'fastify';
import { type LifxSimControl } from './control.js';
import { asBody, type LifxState } from './state.js';

/** `/_control/*`: drive the LIFX simulator over HTTP (no token, not rate-limited, not logged). See README. */
export function registerLifxControlRoutes(
  app: FastifyInstance,
  control: LifxSimControl,
  state: LifxState,
): void {
  app.get('/_control/bulbs', async () => ({ bulbs: control.bulbs() }));
  app.get('/_control/requests', async () => ({ requests: control.requests() }));
  app.post('/_control/reset', async () => {
    control.reset();
    return { ok: true };
  });
  app.post('/_control/fail', async (request, reply) => {
    const body = asBody(request.body);
    const status = body.status === 'hang' ? 'hang' : Number(body.status);
    if (status !== 'hang' && !(status >= 400 && status < 600))
      return reply.code(400).send({ error: 'status must be an HTTP error code or "hang"' });
    control.failNext({
      status,
      times: typeof body.times === 'number' ? body.times : 1,
      delayMs: typeof body.delayMs === 'number' ? body.delayMs : undefined,
    });
    return { ok: true };
  });
  app.put('/_control/bulbs/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const body = asBody(request.body);
    if (!state.bulbs.some((b) => b.id === id)) return reply.code(404).send({ error: 'no such bulb' });
    if (typeof body.connected === 'boolean') control.setConnected(id, body.connected);
    return control.bulb(id);
  });
  app.post('/_control/revoke-token', async (request, reply) => {
    const token = asBody(request.body).token;
    if (typeof token !== 'string' || !control.revokeToken(token))
      return reply.code(404).send({ error: 'unknown token' });
    return { ok: true };
  });
  app.post('/_control/rate-limit', async (request, reply) => {
    const body = asBody(request.body);
    if (typeof body.max !== 'number' || typeof body.windowMs !== 'number')
      return reply.code(400).send({ error: 'max and windowMs are numbers' });
    control.setRateLimit({ max: body.max, windowMs: body.windowMs });
    return { ok: true };
  });
}
