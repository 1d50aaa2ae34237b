import type { FastifyInstance } from 'fastify';
import { HOME_ASSISTANT_DEMO_UNAVAILABLE, type HomeAssistantSim } from './home-assistant.js';

type Body = Record<string, unknown>;
const asBody = (body: unknown): Body =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};

/** The simulated Home Assistant's lights as swatches of the live page (`/_control/bulbs`). */
export function homeAssistantSwatches(sim: HomeAssistantSim) {
  return sim.view().lights.map((l) => ({
    id: l.entityId,
    label: `Home Assistant ${l.name} (${l.modes.join(', ')})`,
    on: l.state === 'on',
    hex: l.hex,
    brightness: l.brightness / 255,
    effect: l.state === 'unavailable' ? 'unavailable' : l.lastFlash ? `flash ${l.lastFlash}` : null,
  }));
}

/**
 * The simulated Home Assistant's faults under the LAN simulator's prefix:
 * `POST /_control/home-assistant/fault {down?, delayMs?, rejectEntity?}` (HA down or slow, one
 * entity's calls refused with 400) · `/revoke-token` · `/restore-token` (the demo token works again)
 * · `/unavailable {entity_id?, unavailable}` (the porch light by default) · `/fail-next {status,
 * times?}` · `GET /_control/home-assistant/log`.
 */
export function registerHomeAssistantControl(app: FastifyInstance, sim: HomeAssistantSim): void {
  app.post('/_control/home-assistant/fault', async (request, reply) => {
    const body = asBody(request.body);
    const delay = body.delayMs;
    if (
      (body.down !== undefined && typeof body.down !== 'boolean') ||
      (delay !== undefined && !(typeof delay === 'number' && Number.isFinite(delay) && delay >= 0)) ||
      (body.rejectEntity !== undefined && body.rejectEntity !== null && typeof body.rejectEntity !== 'string')
    )
      return reply
        .code(400)
        .send({ error: 'down is a boolean, delayMs a number ≥ 0, rejectEntity an id or null' });
    sim.setFault({
      ...(typeof body.down === 'boolean' ? { down: body.down } : {}),
      ...(typeof delay === 'number' ? { delayMs: delay } : {}),
      ...(body.rejectEntity !== undefined ? { rejectEntity: body.rejectEntity } : {}),
    });
    return { fault: sim.view().fault };
  });
  app.post('/_control/home-assistant/revoke-token', async () => {
    sim.revokeTokens();
    return { revoked: true };
  });
  app.post('/_control/home-assistant/restore-token', async () => {
    sim.addToken(sim.view().token);
    return { restored: true };
  });
  app.post('/_control/home-assistant/unavailable', async (request, reply) => {
    const body = asBody(request.body);
    const id = body.entity_id ?? HOME_ASSISTANT_DEMO_UNAVAILABLE;
    if (typeof id !== 'string' || typeof body.unavailable !== 'boolean')
      return reply.code(400).send({ error: 'entity_id is a light id, unavailable a boolean' });
    if (!sim.setUnavailable(id, body.unavailable)) return reply.code(404).send({ error: 'no such light' });
    return { light: sim.light(id) };
  });
  app.post('/_control/home-assistant/fail-next', async (request, reply) => {
    const body = asBody(request.body);
    const status = body.status;
    const times = body.times ?? 1;
    if (
      typeof status !== 'number' ||
      !Number.isInteger(status) ||
      status < 400 ||
      status > 599 ||
      typeof times !== 'number'
    )
      return reply.code(400).send({ error: 'status is 400–599, times a number' });
    sim.failNextServiceCalls(status, times);
    return { failNext: { status, times } };
  });
  app.get('/_control/home-assistant/log', async () => ({ requests: sim.requests() }));
}
