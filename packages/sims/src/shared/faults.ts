import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { delay } from './clock.js';

export type FaultKind = 'unauthorized' | 'rate-limit' | 'server-error' | 'invalid-json' | 'slow';

export const FAULT_KINDS: readonly FaultKind[] = [
  'unauthorized',
  'rate-limit',
  'server-error',
  'invalid-json',
  'slow',
];

export interface FaultSpec {
  kind: FaultKind;
  /** How many requests it hits; omitted = every request until `clearFaults()`. */
  times?: number;
  /** For `slow`: how long to hold the answer (default 15 000 ms, beyond a 10 s client timeout). */
  delayMs?: number;
  /** Only requests whose path (below the prefix) starts with this, e.g. `/v1/race_control`. */
  path?: string;
}

export interface ActiveFault {
  kind: FaultKind;
  remaining: number | null;
  delayMs: number;
  path: string | null;
}

export const DEFAULT_SLOW_MS = 15_000;

/** A finite number field, or undefined when absent; throws naming the field otherwise. */
export function optionalNumber(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${key} must be a number`);
  return v;
}

/** A fault from a `/_control/faults` body; throws a one-line reason when it is not one. */
export function parseFaultSpec(raw: unknown): FaultSpec {
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (!FAULT_KINDS.includes(body.kind as FaultKind))
    throw new Error(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  if (body.path !== undefined && typeof body.path !== 'string') throw new Error('path must be a string');
  return {
    kind: body.kind as FaultKind,
    times: optionalNumber(body, 'times'),
    delayMs: optionalNumber(body, 'delayMs'),
    path: body.path,
  };
}

/** A queue of misbehaviours: each request takes the first fault that matches its path. */
export class Faults {
  private queue: ActiveFault[] = [];

  add(spec: FaultSpec): ActiveFault {
    if (!FAULT_KINDS.includes(spec.kind)) throw new Error(`unknown fault kind: ${String(spec.kind)}`);
    const fault: ActiveFault = {
      kind: spec.kind,
      remaining: spec.times === undefined ? null : Math.max(0, Math.floor(spec.times)),
      delayMs: spec.delayMs ?? DEFAULT_SLOW_MS,
      path: spec.path ?? null,
    };
    if (fault.remaining !== 0) this.queue.push(fault);
    return fault;
  }

  clear(): void {
    this.queue = [];
  }

  list(): ActiveFault[] {
    return this.queue.map((f) => ({ ...f }));
  }

  take(path: string): ActiveFault | undefined {
    const fault = this.queue.find((f) => f.path === null || path.startsWith(f.path));
    if (!fault) return undefined;
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.queue = this.queue.filter((f) => f !== fault);
    }
    return { ...fault };
  }
}

export interface FaultResponse {
  status: number;
  contentType: string;
  body: string;
}

/** Bodies of the error faults, per simulated service. */
export type FaultResponses = Record<Exclude<FaultKind, 'slow' | 'invalid-json'>, FaultResponse>;

const truncated = new WeakSet<FastifyRequest>();

/**
 * Applies the fault queue to every request the predicate selects: error kinds answer at once,
 * `slow` holds the request, `invalid-json` lets the route answer and cuts its body in half.
 */
export function applyFaults(
  app: FastifyInstance,
  faults: Faults,
  responses: FaultResponses,
  pathOf: (request: FastifyRequest) => string | null,
): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request);
    if (path === null) return;
    const fault = faults.take(path);
    if (!fault) return;
    if (fault.kind === 'slow') {
      await delay(fault.delayMs);
      return;
    }
    if (fault.kind === 'invalid-json') {
      truncated.add(request);
      return;
    }
    const res = responses[fault.kind];
    return reply.code(res.status).type(res.contentType).send(res.body);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!truncated.has(request)) return payload;
    truncated.delete(request);
    reply.code(200).type('application/json');
    const text = typeof payload === 'string' ? payload : '[{"date":"2026-01-01T00:00:00+00:00","message":"';
    return text.length > 2 ? text.slice(0, Math.max(1, Math.floor(text.length / 2))) : '[{"';
  });
}
