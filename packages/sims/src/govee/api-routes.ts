import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { delay } from '../shared/clock.js';
import {
  asBody,
  CAPABILITY,
  goveeKeyId,
  type GoveeDevice,
  type GoveeSettings,
  type GoveeState,
  takeBudget,
} from './state.js';

const API = '/router/api/v1';

type Timed = FastifyRequest & { receivedAt?: number; goveeDevice?: string | null };

/** The device a control or state body names (`list` for the device list). */
function scopeOf(request: FastifyRequest): string {
  if (request.url.endsWith('/user/devices')) return 'list';
  const device = asBody(asBody(request.body).payload).device;
  return typeof device === 'string' ? device : 'unknown';
}

function refuse(reply: FastifyReply, status: number, msg: string, requestId?: unknown) {
  return reply
    .code(status)
    .send({ ...(typeof requestId === 'string' ? { requestId } : {}), code: status, msg, message: msg });
}

/**
 * Every API call passes here: the request log, the key check (401), queued faults, the latency,
 * then the budgets (per account per UTC day, per device per minute; the device list has its own
 * minute) with `X-RateLimit-*` (day) and `API-RateLimit-*` (minute) headers, 429 + Retry-After over.
 */
export function registerGoveeApiGuard(
  api: FastifyInstance,
  state: GoveeState,
  settings: GoveeSettings,
  prefixLength: number,
): void {
  const { now } = settings;
  api.addHook('onResponse', async (request, reply) => {
    const timed = request as Timed;
    state.log.push({
      method: request.method,
      path: request.url.slice(prefixLength).split('?')[0] ?? '',
      at: timed.receivedAt ?? now(),
      status: reply.statusCode,
      device: timed.goveeDevice ?? null,
      keyId:
        typeof request.headers['govee-api-key'] === 'string'
          ? goveeKeyId(request.headers['govee-api-key'])
          : null,
      body: request.body ?? null,
    });
    if (state.log.length > 100_000) state.log.splice(0, 50_000);
  });
  api.addHook('onRequest', async (request, reply) => {
    (request as Timed).receivedAt = now();
    const key = request.headers['govee-api-key'];
    if (typeof key !== 'string' || !state.keys.has(key)) return refuse(reply, 401, 'Invalid API Key');
  });
  api.addHook('preHandler', async (request, reply) => {
    const scope = scopeOf(request);
    (request as Timed).goveeDevice = scope === 'list' ? null : scope;
    const fault = state.faults[0];
    if (fault) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) state.faults.shift();
      if (fault.kind === 'down') return refuse(reply, 503, 'Service Unavailable');
      if (fault.kind === 'rate-limit') {
        void reply.header('Retry-After', String(fault.retryAfterS ?? 60));
        return refuse(reply, 429, 'Too Many Requests');
      }
      await delay(fault.delayMs ?? 15_000);
    }
    if (state.latencyMs > 0) await delay(state.latencyMs);
    const at = now();
    const budget = takeBudget(state, request.headers['govee-api-key'] as string, scope, at);
    void reply.headers({
      'X-RateLimit-Limit': String(budget.day.limit),
      'X-RateLimit-Remaining': String(budget.day.remaining),
      'X-RateLimit-Reset': String(budget.day.resetAtSec),
      'API-RateLimit-Limit': String(budget.minute.limit),
      'API-RateLimit-Remaining': String(budget.minute.remaining),
      'API-RateLimit-Reset': String(budget.minute.resetAtSec),
    });
    if (!budget.allowed) {
      const resetAt = budget.day.remaining === 0 ? budget.day.resetAtSec : budget.minute.resetAtSec;
      void reply.header('Retry-After', String(Math.max(1, resetAt - Math.floor(at / 1000))));
      return refuse(reply, 429, 'Too Many Requests', asBody(request.body).requestId);
    }
  });
}

function capabilityOf(device: GoveeDevice, type: unknown, instance: unknown) {
  return device.capabilities.find((c) => c.type === type && c.instance === instance);
}

/** A whole number inside the capability's `range` (or 0/1 for powerSwitch), else an error text. */
function checkValue(instance: string, value: unknown, parameters: Record<string, unknown>): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${instance} value must be an integer`;
  if (instance === 'powerSwitch')
    return value === 0 || value === 1 ? null : 'powerSwitch value must be 0 or 1';
  const range = parameters.range as { min: number; max: number } | undefined;
  if (range && (value < range.min || value > range.max))
    return `${instance} value must be from ${range.min} to ${range.max}`;
  return null;
}

/**
 * What a control call changes. A colour ends a white (colorTemperatureK reads 0 again); a white
 * keeps the last colour, which the state still reports, as Govee's LAN status does (reference §2.1).
 */
function apply(device: GoveeDevice, instance: string, value: number): void {
  if (instance === 'powerSwitch') device.on = value === 1;
  else if (instance === 'brightness') device.brightness = value;
  else if (instance === 'colorRgb') {
    device.rgb = value;
    device.colorTemK = 0;
  } else if (instance === 'colorTemperatureK') device.colorTemK = value;
}

function stateCapabilities(device: GoveeDevice) {
  const has = (instance: string) => device.capabilities.some((c) => c.instance === instance);
  return [
    { type: 'devices.capabilities.online', instance: 'online', state: { value: device.online } },
    { type: CAPABILITY.onOff, instance: 'powerSwitch', state: { value: device.on ? 1 : 0 } },
    { type: CAPABILITY.range, instance: 'brightness', state: { value: device.brightness } },
    { type: CAPABILITY.color, instance: 'colorRgb', state: { value: device.rgb } },
    ...(has('colorTemperatureK')
      ? [{ type: CAPABILITY.color, instance: 'colorTemperatureK', state: { value: device.colorTemK } }]
      : []),
  ];
}

/** Govee's platform API (reference §2.2): device list, control, state. */
export function registerGoveeApiRoutes(api: FastifyInstance, state: GoveeState): void {
  api.get(`${API}/user/devices`, async () => ({
    code: 200,
    message: 'success',
    data: state.devices.map((d) => ({
      sku: d.sku,
      device: d.device,
      deviceName: d.deviceName,
      type: 'devices.types.light',
      capabilities: d.capabilities,
    })),
  }));

  const target = (request: FastifyRequest, reply: FastifyReply) => {
    const body = asBody(request.body);
    const requestId = body.requestId;
    if (typeof requestId !== 'string' || requestId === '') {
      void refuse(reply, 400, 'requestId is required');
      return null;
    }
    const payload = asBody(body.payload);
    const device = state.devices.find((d) => d.device === payload.device && d.sku === payload.sku);
    if (!device) {
      void refuse(reply, 400, 'devices not exist', requestId);
      return null;
    }
    return { requestId, payload, device };
  };

  api.post(`${API}/device/control`, async (request, reply) => {
    const found = target(request, reply);
    if (!found) return reply;
    const { requestId, payload, device } = found;
    const capability = asBody(payload.capability);
    const known = capabilityOf(device, capability.type, capability.instance);
    if (!known) return refuse(reply, 400, 'Unsupported capability', requestId);
    const problem = checkValue(known.instance, capability.value, known.parameters);
    if (problem) return refuse(reply, 400, problem, requestId);
    if (!device.online) return refuse(reply, 400, 'Device Offline', requestId);
    apply(device, known.instance, capability.value as number);
    return {
      requestId,
      code: 200,
      msg: 'success',
      capability: {
        type: known.type,
        instance: known.instance,
        value: capability.value,
        state: { status: 'success' },
      },
    };
  });

  api.post(`${API}/device/state`, async (request, reply) => {
    const found = target(request, reply);
    if (!found) return reply;
    const { requestId, device } = found;
    return {
      requestId,
      code: 200,
      msg: 'success',
      payload: { sku: device.sku, device: device.device, capabilities: stateCapabilities(device) },
    };
  });
}
