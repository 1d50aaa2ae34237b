import type { FastifyInstance } from 'fastify';
import { startWledSim, type WledSimDevice, type WledSimFault } from './wled.js';

/** The demo's WLED devices: fixed MACs, so a companion's selection names the same ones each run. */
// The desk strip starts in a saved preset (an effect running), the shelf off: what giving the room back reads.
export const WLED_DEMO_DEVICES = [
  {
    name: 'Desk strip',
    mac: 'a0b765d00001',
    ledCount: 60,
    white: false,
    version: '0.15.3',
    first: { ps: 1 },
  },
  {
    name: 'Shelf',
    mac: 'a0b765d00002',
    ledCount: 144,
    white: true,
    version: '0.14.4',
    first: { on: false, bri: 60, col: [40, 120, 255] },
  },
] as const;

/** Starts `count` demo devices (default 2), each on its own ephemeral port; all or none. */
export async function startWledDemoDevices(count: number, now: () => number): Promise<WledSimDevice[]> {
  const devices: WledSimDevice[] = [];
  try {
    for (let k = 0; k < count; k += 1) {
      const demo = WLED_DEMO_DEVICES[k % WLED_DEMO_DEVICES.length]!;
      const extra = k >= WLED_DEMO_DEVICES.length;
      devices.push(
        await startWledSim({
          ...demo,
          name: extra ? `${demo.name} ${k + 1}` : demo.name,
          mac: extra ? `a0b765d0${String(k + 1).padStart(4, '0')}` : demo.mac,
          now,
        }),
      );
    }
  } catch (error) {
    await Promise.all(devices.map((d) => d.close()));
    throw error;
  }
  return devices;
}

/** The virtual lights page's swatch of each device. */
export function wledSwatches(devices: readonly WledSimDevice[]) {
  return devices.map((d) => {
    const v = d.view();
    return {
      id: v.id,
      label: `WLED ${v.name} · :${v.port}`,
      on: v.state.on && !v.fault.offline,
      hex: v.hex,
      brightness: v.state.bri / 255,
      effect: v.fault.offline
        ? 'offline'
        : v.fault.busy
          ? 'busy (503)'
          : v.effect === 'Solid'
            ? null
            : v.effect,
    };
  });
}

const isMac = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{12}$/i.test(v);

const asBody = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/**
 * `POST /_control/wled/fault {id?, offline?, delayMs?, busy?, failNext?, endless?, mac?}` (one
 * device by its MAC, or all; `mac`: 12 hex digits it answers with instead of its own, or null) and
 * `GET /_control/wled/:id/log`.
 */
export function registerWledControl(app: FastifyInstance, devices: readonly WledSimDevice[]): void {
  const find = (id: unknown) =>
    typeof id === 'string' ? devices.find((d) => d.id === id.toLowerCase()) : undefined;
  app.post('/_control/wled/fault', async (request, reply) => {
    const body = asBody(request.body);
    const targets = body.id === undefined ? devices : [find(body.id)].filter((d) => d !== undefined);
    if (targets.length === 0) return reply.code(404).send({ error: 'no such WLED device' });
    const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
    const flags = ['offline', 'busy', 'endless'] as const;
    if (
      flags.some((k) => body[k] !== undefined && typeof body[k] !== 'boolean') ||
      (body.delayMs !== undefined && count(body.delayMs) === undefined) ||
      (body.failNext !== undefined && count(body.failNext) === undefined) ||
      (body.mac !== undefined && body.mac !== null && !isMac(body.mac))
    )
      return reply.code(400).send({
        error:
          'offline, busy and endless are booleans; delayMs and failNext whole numbers ≥ 0; mac 12 hex digits or null',
      });
    const patch: Partial<WledSimFault> = {};
    for (const k of flags) if (typeof body[k] === 'boolean') patch[k] = body[k];
    if (count(body.delayMs) !== undefined) patch.delayMs = count(body.delayMs)!;
    if (count(body.failNext) !== undefined) patch.failNext = count(body.failNext)!;
    if (body.mac === null || isMac(body.mac)) patch.mac = body.mac === null ? null : body.mac.toLowerCase();
    for (const device of targets) device.setFault(patch);
    return { devices: devices.map((d) => ({ id: d.id, fault: d.view().fault })) };
  });
  app.get('/_control/wled/:id/log', async (request, reply) => {
    const device = find((request.params as { id: string }).id);
    if (!device) return reply.code(404).send({ error: 'no such WLED device' });
    return { requests: device.requests() };
  });
}
