import { hsbkToColor } from '@flaglight/core';
import type { FastifyInstance } from 'fastify';
import { hsbkToHex } from '../lifx/colors.js';
import { asBody } from './control-body.js';
import type { VirtualLifxBulbs } from './lifx-bulbs.js';

/** The virtual lights page's swatch of each LIFX bulb. */
export function lifxSwatches(lifx: VirtualLifxBulbs) {
  return lifx.list().map((b) => {
    const color = hsbkToColor(b.color);
    return {
      id: b.id,
      label: `LIFX ${b.label} · :${b.port}`,
      on: b.on && !b.fault.offline,
      hex: hsbkToHex(color),
      brightness: color.brightness,
      effect: b.fault.offline ? 'offline' : b.waveformRunning ? (b.lastWaveform?.waveformName ?? null) : null,
    };
  });
}

/** `GET /_control/lifx/:id/log` and `POST /_control/lifx/fault {id?, dropPercent?, delayMs?, offline?}`. */
export function registerLifxControl(app: FastifyInstance, lifx: VirtualLifxBulbs): void {
  app.get('/_control/lifx/:id/log', async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!lifx.get(id)) return reply.code(404).send({ error: 'no such bulb' });
    return { received: lifx.log(id) };
  });
  app.post('/_control/lifx/fault', async (request, reply) => {
    const body = asBody(request.body);
    const id = typeof body.id === 'string' ? body.id : undefined;
    if (id !== undefined && !lifx.get(id)) return reply.code(404).send({ error: 'no such bulb' });
    const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    if (
      (body.dropPercent !== undefined && number(body.dropPercent) === undefined) ||
      (body.delayMs !== undefined && number(body.delayMs) === undefined) ||
      (body.offline !== undefined && typeof body.offline !== 'boolean')
    )
      return reply.code(400).send({ error: 'dropPercent and delayMs are numbers, offline a boolean' });
    lifx.setFault(id, {
      dropPercent: number(body.dropPercent),
      delayMs: number(body.delayMs),
      offline: typeof body.offline === 'boolean' ? body.offline : undefined,
    });
    return { bulbs: lifx.list().map((b) => ({ id: b.id, fault: b.fault })) };
  });
}
