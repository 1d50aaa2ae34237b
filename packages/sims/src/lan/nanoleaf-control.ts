import type { FastifyInstance } from 'fastify';
import { asBody } from './control-body.js';
import { type NanoleafSimDevice, startNanoleafSim } from './nanoleaf.js';

/** The demo's Nanoleaf controllers: fixed serials, so a companion's stored tokens name the same ones. */
// Each starts in its own look (one off, one playing a saved effect dimmed): what giving the room back reads.
export const NANOLEAF_DEMO_DEVICES = [
  { name: 'Shapes Living room', serialNo: 'S19240A1001', model: 'NL42', panelCount: 7, firstLook: {} },
  {
    name: 'Canvas Office',
    serialNo: 'S19240A1002',
    model: 'NL29',
    panelCount: 9,
    firstLook: { on: false, brightness: 70, hue: 210, sat: 80 },
  },
  {
    name: 'Lines Desk',
    serialNo: 'S19240A1003',
    model: 'NL59',
    panelCount: 6,
    firstLook: { brightness: 30, hue: 120, sat: 60, colorMode: 'effect', select: 'Northern Lights' },
  },
] as const;

/** Starts `count` demo controllers, each on its own ephemeral port; all or none. */
export async function startNanoleafDemoDevices(
  count: number,
  now: () => number,
): Promise<NanoleafSimDevice[]> {
  const devices: NanoleafSimDevice[] = [];
  try {
    for (let k = 0; k < count; k += 1) {
      const demo = NANOLEAF_DEMO_DEVICES[k % NANOLEAF_DEMO_DEVICES.length]!;
      const serialNo =
        k < NANOLEAF_DEMO_DEVICES.length ? demo.serialNo : `S19240A2${String(k).padStart(3, '0')}`;
      const name = k < NANOLEAF_DEMO_DEVICES.length ? demo.name : `${demo.name} ${k + 1}`;
      devices.push(await startNanoleafSim({ ...demo, name, serialNo, now }));
    }
  } catch (error) {
    await Promise.all(devices.map((d) => d.close()));
    throw error;
  }
  return devices;
}

/** The virtual lights page's swatch of each controller, with its panels' colours. */
export function nanoleafSwatches(devices: readonly NanoleafSimDevice[]) {
  return devices.map((d) => {
    const v = d.view();
    const lit = v.panels.find((p) => p.hex !== '#000000');
    return {
      id: v.id,
      label: `Nanoleaf ${v.name} · :${v.port}`,
      on: v.on && !v.fault.offline,
      hex: lit?.hex ?? '#000000',
      brightness: v.brightness / 100,
      effect: v.fault.offline ? 'offline' : v.colorMode === 'effect' ? v.select : null,
      panels: v.panels.map((p) => p.hex),
    };
  });
}

/**
 * `POST /_control/nanoleaf/button {id?}` · `POST /_control/nanoleaf/fault {id?, dropPercent?,
 * delayMs?, offline?, serialNo?, revokeTokens?: true}` · `GET /_control/nanoleaf/:id/log`.
 */
export function registerNanoleafControl(app: FastifyInstance, nanoleaf: NanoleafSimDevice[]): void {
  const nanoleafDevice = (id: unknown) =>
    typeof id === 'string' ? nanoleaf.find((d) => d.id === id.toLowerCase()) : undefined;
  // The power-button gesture on one controller (`id`: its serial) or on all of them.
  app.post('/_control/nanoleaf/button', async (request, reply) => {
    const { id } = asBody(request.body);
    const targets = id === undefined ? nanoleaf : [nanoleafDevice(id)].filter((d) => d !== undefined);
    if (targets.length === 0) return reply.code(404).send({ error: 'no such Nanoleaf controller' });
    for (const device of targets) device.holdButton();
    return { pairing: targets.map((d) => d.id) };
  });
  app.post('/_control/nanoleaf/fault', async (request, reply) => {
    const body = asBody(request.body);
    const targets =
      body.id === undefined ? nanoleaf : [nanoleafDevice(body.id)].filter((d) => d !== undefined);
    if (targets.length === 0) return reply.code(404).send({ error: 'no such Nanoleaf controller' });
    const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
    if (
      (body.dropPercent !== undefined && number(body.dropPercent) === undefined) ||
      (body.delayMs !== undefined && number(body.delayMs) === undefined) ||
      (body.offline !== undefined && typeof body.offline !== 'boolean') ||
      (body.revokeTokens !== undefined && body.revokeTokens !== true) ||
      (body.serialNo !== undefined &&
        body.serialNo !== null &&
        !(typeof body.serialNo === 'string' && /^[A-Za-z0-9]{1,32}$/.test(body.serialNo)))
    )
      return reply.code(400).send({
        error:
          'dropPercent and delayMs are numbers ≥ 0, offline a boolean, revokeTokens true, serialNo 1–32 letters and digits or null',
      });
    for (const device of targets) {
      device.setFault({
        ...(number(body.dropPercent) === undefined ? {} : { dropPercent: number(body.dropPercent) }),
        ...(number(body.delayMs) === undefined ? {} : { delayMs: number(body.delayMs) }),
        ...(typeof body.offline === 'boolean' ? { offline: body.offline } : {}),
        ...(body.serialNo === undefined ? {} : { serialNo: body.serialNo }),
      });
      if (body.revokeTokens === true) device.revokeTokens();
    }
    return { devices: nanoleaf.map((d) => ({ id: d.id, fault: d.view().fault, tokens: d.view().tokens })) };
  });
  app.get('/_control/nanoleaf/:id/log', async (request, reply) => {
    const device = nanoleafDevice((request.params as { id: string }).id);
    if (!device) return reply.code(404).send({ error: 'no such Nanoleaf controller' });
    return { requests: device.requests() };
  });
}
