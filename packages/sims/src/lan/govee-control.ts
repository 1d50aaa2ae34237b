import type { FastifyInstance } from 'fastify';
import { asBody } from './control-body.js';
import type { VirtualGoveeDevices } from './govee-lan.js';

const rgbHex = (c: { r: number; g: number; b: number }) =>
  `#${[c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** The virtual lights page's swatch of each Govee device. */
export function goveeSwatches(govee: VirtualGoveeDevices) {
  return govee.list().map((d) => ({
    id: d.id,
    label: `Govee ${d.label} (${d.sku}) · :${d.commandPort}`,
    on: d.on && d.lanControl,
    hex: d.kelvin > 0 ? '#ffffff' : rgbHex(d.color),
    brightness: d.brightness / 100,
    effect: !d.lanControl ? 'LAN Control off' : d.fault.ignoreCommands ? 'ignores commands' : null,
  }));
}

/**
 * `GET /_control/govee/:id/log` · `POST /_control/govee/fault {id?, lossPercent?, duplicates?,
 * delayMs?, jitterMs?, ignoreCommands?}` · `/lan-control {id?, on}` · `/reboot {id}`.
 */
export function registerGoveeControl(app: FastifyInstance, govee: VirtualGoveeDevices): void {
  app.get('/_control/govee/:id/log', async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!govee.get(id)) return reply.code(404).send({ error: 'no such Govee device' });
    return { received: govee.log(id) };
  });
  app.post('/_control/govee/fault', async (request, reply) => {
    const body = asBody(request.body);
    const id = typeof body.id === 'string' ? body.id : undefined;
    if (id !== undefined && !govee.get(id)) return reply.code(404).send({ error: 'no such Govee device' });
    const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
    const numbers = ['lossPercent', 'delayMs', 'jitterMs'] as const;
    const flags = ['duplicates', 'ignoreCommands'] as const;
    if (
      numbers.some((k) => body[k] !== undefined && number(body[k]) === undefined) ||
      flags.some((k) => body[k] !== undefined && flag(body[k]) === undefined)
    )
      return reply.code(400).send({
        error: 'lossPercent, delayMs and jitterMs are numbers; duplicates and ignoreCommands booleans',
      });
    govee.setFault(id, {
      lossPercent: number(body.lossPercent),
      delayMs: number(body.delayMs),
      jitterMs: number(body.jitterMs),
      duplicates: flag(body.duplicates),
      ignoreCommands: flag(body.ignoreCommands),
    });
    return { devices: govee.list().map((d) => ({ id: d.id, fault: d.fault })) };
  });
  app.post('/_control/govee/lan-control', async (request, reply) => {
    const body = asBody(request.body);
    const id = typeof body.id === 'string' ? body.id : undefined;
    if (id !== undefined && !govee.get(id)) return reply.code(404).send({ error: 'no such Govee device' });
    if (typeof body.on !== 'boolean') return reply.code(400).send({ error: 'on is a boolean' });
    govee.setLanControl(id, body.on);
    return { devices: govee.list().map((d) => ({ id: d.id, lanControl: d.lanControl })) };
  });
  app.post('/_control/govee/reboot', async (request, reply) => {
    const body = asBody(request.body);
    if (typeof body.id !== 'string' || !govee.get(body.id))
      return reply.code(404).send({ error: 'no such Govee device' });
    return { device: await govee.reboot(body.id) };
  });
}
