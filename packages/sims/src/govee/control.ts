import { type FastifyInstance } from 'fastify';
import {
  asBody,
  createGoveeDevices,
  type GoveeFault,
  type GoveeLoggedRequest,
  type GoveeSettings,
  type GoveeState,
  kelvinToRgb,
  rgbToHex,
} from './state.js';

export interface GoveeDeviceView {
  device: string;
  sku: string;
  deviceName: string;
  online: boolean;
  on: boolean;
  brightness: number;
  /** `#rrggbb` of what it shows (colour, or the white of its colour temperature). */
  hex: string;
  colorTemK: number;
}

export interface GoveeSimControl {
  devices(): GoveeDeviceView[];
  device(id: string): GoveeDeviceView | undefined;
  setOnline(id: string, online: boolean): boolean;
  /** The next API requests misbehave this way (`times`, default 1). */
  fault(fault: GoveeFault): void;
  setLimits(limits: { perDeviceMinute?: number; perDay?: number }): void;
  setLatency(ms: number): void;
  /** Requests the account may still make today. */
  dayRemaining(key: string): number;
  revokeKey(key: string): boolean;
  /** Another account's key is accepted from now on (until reset). */
  addKey(key: string): void;
  requests(): GoveeLoggedRequest[];
  resetRequests(): void;
  /** Devices, keys, counters, faults and log back to the start. */
  reset(): void;
}

export function createGoveeControl(state: GoveeState, settings: GoveeSettings): GoveeSimControl {
  const view = (d: GoveeState['devices'][number]): GoveeDeviceView => ({
    device: d.device,
    sku: d.sku,
    deviceName: d.deviceName,
    online: d.online,
    on: d.on,
    brightness: d.brightness,
    hex: rgbToHex(d.colorTemK > 0 ? kelvinToRgb(d.colorTemK) : d.rgb),
    colorTemK: d.colorTemK,
  });
  return {
    devices: () => state.devices.map(view),
    device: (id) => {
      const found = state.devices.find((d) => d.device === id);
      return found && view(found);
    },
    setOnline(id, online) {
      const found = state.devices.find((d) => d.device === id);
      if (found) found.online = online;
      return found !== undefined;
    },
    fault(fault) {
      state.faults.push({ ...fault, remaining: fault.times ?? 1 });
    },
    setLimits(limits) {
      state.limits = { ...state.limits, ...limits };
      state.days.clear();
      state.minutes.clear();
    },
    setLatency(ms) {
      state.latencyMs = ms;
    },
    dayRemaining(key) {
      const day = state.days.get(key);
      const used = day && settings.now() < day.startedAt + 86_400_000 ? day.used : 0;
      return Math.max(0, state.limits.perDay - used);
    },
    revokeKey: (key) => state.keys.delete(key),
    addKey(key) {
      state.keys.add(key);
    },
    requests: () => [...state.log],
    resetRequests() {
      state.log = [];
    },
    reset() {
      state.keys = new Set(settings.initialKeys);
      state.devices = createGoveeDevices(settings.deviceCount);
      state.limits = { ...settings.limits };
      state.latencyMs = settings.latencyMs;
      state.days.clear();
      state.minutes.clear();
      state.faults = [];
      state.log = [];
    },
  };
}

const FAULT_KINDS = ['rate-limit', 'slow', 'down'] as const;

/** `/_control/*`: drive the Govee simulator over HTTP (no key, not rate-limited, not logged). See README. */
export function registerGoveeControlRoutes(app: FastifyInstance, control: GoveeSimControl): void {
  app.get('/_control/devices', async () => ({ devices: control.devices() }));
  // The shared live page (lights-page) reads this shape.
  app.get('/_control/bulbs', async () => ({
    bulbs: control.devices().map((d) => ({
      id: d.device,
      label: `${d.deviceName} (${d.sku})`,
      on: d.on && d.online,
      hex: d.hex,
      brightness: d.brightness / 100,
      effect: d.online ? null : 'offline',
    })),
  }));
  app.get('/_control/requests', async () => ({ requests: control.requests() }));
  app.post('/_control/reset', async () => {
    control.reset();
    return { ok: true };
  });
  app.post('/_control/fault', async (request, reply) => {
    const body = asBody(request.body);
    const kind = body.kind as GoveeFault['kind'];
    if (!FAULT_KINDS.includes(kind))
      return reply.code(400).send({ error: `kind must be one of ${FAULT_KINDS.join(', ')}` });
    const times = typeof body.times === 'number' ? body.times : 1;
    if (kind === 'rate-limit')
      control.fault({
        kind,
        times,
        retryAfterS: typeof body.retryAfterS === 'number' ? body.retryAfterS : 60,
      });
    else if (kind === 'slow')
      control.fault({ kind, times, delayMs: typeof body.delayMs === 'number' ? body.delayMs : 15_000 });
    else control.fault({ kind, times });
    return { ok: true };
  });
  app.post('/_control/limits', async (request, reply) => {
    const body = asBody(request.body);
    const limits: { perDeviceMinute?: number; perDay?: number } = {};
    for (const key of ['perDeviceMinute', 'perDay'] as const) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        return reply.code(400).send({ error: `${key} must be a whole number` });
      limits[key] = value;
    }
    if (typeof body.latencyMs === 'number') control.setLatency(body.latencyMs);
    control.setLimits(limits);
    return { ok: true };
  });
  app.put('/_control/devices/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const body = asBody(request.body);
    if (typeof body.online !== 'boolean')
      return reply.code(400).send({ error: 'online must be true or false' });
    if (!control.setOnline(id, body.online)) return reply.code(404).send({ error: 'no such device' });
    return control.device(id);
  });
  app.post('/_control/revoke-key', async (request, reply) => {
    const key = asBody(request.body).key;
    if (typeof key !== 'string' || !control.revokeKey(key))
      return reply.code(404).send({ error: 'unknown key' });
    return { ok: true };
  });
}
