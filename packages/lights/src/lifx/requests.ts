import { formatLifxColor, LIFX_BREATHE_PERIOD_S, type LightColor, type LightStep } from '@flaglight/core';
import { isOff, type LightStateCommand } from '../driver.js';
import { LIGHT_ERROR_MESSAGES as M, LightError } from '../errors.js';
import { parseDeviceIds, toLifxSelectors } from './selector.js';

// The LIFX cloud driver's requests: what it queues, and what each answer means for the queue.

export type JobKind = 'list' | 'state' | 'flag';

export interface Job {
  kind: JobKind;
  method: string;
  path: string;
  body?: unknown;
  /** Devices the request touches ('*' for all), for the per-device throttles. */
  devices: string[];
  attempts: number;
  notBefore: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A job dropped on purpose (token switch, disconnect, superseded): not an error to report. */
export class Cancelled extends Error {
  override readonly name = 'Cancelled';
}

/** The `PUT /lights/:selector/state` body for a light state. */
export const statePayload = (state: LightStateCommand) =>
  isOff(state)
    ? { power: 'off', duration: state.transitionMs / 1000, fast: false }
    : {
        power: 'on',
        color: formatLifxColor(state.color),
        brightness: state.brightness,
        duration: state.transitionMs / 1000,
        fast: false,
      };

/** A request before it is queued: what to send, and which devices it touches. */
export type LifxRequest = Pick<Job, 'kind' | 'method' | 'path' | 'body' | 'devices'>;

/** The devices a request touches, for the per-device throttles: '*' when it names none. */
function touchedDevices(ids: readonly string[]): string[] {
  const list = parseDeviceIds(ids);
  return list.length === 0 ? ['*'] : list;
}

/** One state request: by selector for up to 25 bulbs, else one batch `PUT /lights/states`. */
export function stateRequest(ids: readonly string[], state: LightStateCommand): LifxRequest {
  const selectors = toLifxSelectors(ids);
  const payload = statePayload(state);
  if (selectors.length === 1)
    return {
      kind: 'state',
      method: 'PUT',
      path: `/lights/${encodeURIComponent(selectors[0]!)}/state`,
      body: payload,
      devices: touchedDevices(ids),
    };
  return {
    kind: 'state',
    method: 'PUT',
    path: '/lights/states',
    body: { states: selectors.map((selector) => ({ selector })), defaults: payload },
    devices: touchedDevices(ids),
  };
}

/** One effect request per selector of at most 25 bulbs. */
export function effectRequests(
  ids: readonly string[],
  name: 'pulse' | 'breathe',
  body: object,
): LifxRequest[] {
  return toLifxSelectors(ids).map((selector) => ({
    kind: 'flag',
    method: 'POST',
    path: `/lights/${encodeURIComponent(selector)}/effects/${name}`,
    body,
    devices: touchedDevices(parseDeviceIds(selector)),
  }));
}

/** A strobe step as LIFX's native pulse effect. */
export function pulseBody(step: Extract<LightStep, { kind: 'strobe' }>) {
  return {
    power_on: true,
    color: formatLifxColor({ ...step.color, brightness: step.brightness }),
    from_color: formatLifxColor(step.fromColor),
    period: step.periodMs / 1000,
    cycles: step.cycles,
    mode: 'strobe',
  };
}

/** SPEC §7 breathe: color, cycles, period 0.5, persist false, power_on true. */
export function breatheBody(color: LightColor, cycles: number) {
  return {
    color: formatLifxColor(color),
    cycles,
    period: LIFX_BREATHE_PERIOD_S,
    persist: false,
    power_on: true,
  };
}

/** What one attempt came to: the parsed body, or a verdict for the queue. */
export type Verdict =
  | { ok: true; value: unknown }
  | { ok: false; retry: boolean; error: LightError; waitMs?: number; disconnect?: boolean; skip?: string };

/** The `X-RateLimit-*` budget last seen. */
export interface RateBudget {
  limit: number;
  remaining: number;
  resetAtMs: number;
}

export function finalError(
  kind: JobKind,
  cause: 'timeout' | 'network' | 'server' | 'rate-limit',
  status?: number,
) {
  if (cause === 'timeout')
    return new LightError('timeout', kind === 'list' ? M.lifxConnectionTimedOut : M.lifxRequestTimedOut);
  const message = kind === 'list' ? M.lifxConnectFailed : M.lifxSetFlagFailed;
  return new LightError(cause, cause === 'network' ? M.lifxConnectFailed : message, status);
}

/** What an answer means for the job: done, retry (after `waitMs`), give up, or disconnect. */
export function judgeResponse(
  job: Pick<Job, 'kind' | 'path'>,
  status: number,
  text: string,
  budget: RateBudget | null,
  nowMs: number,
): Verdict {
  if (status === 401)
    return {
      ok: false,
      retry: false,
      disconnect: true,
      error: new LightError('auth', M.lifxInvalidToken, 401),
    };
  if (status === 404)
    return {
      ok: false,
      retry: false,
      skip: `No LIFX devices match ${job.path}`,
      error: new LightError(
        'not-found',
        job.kind === 'list' ? M.lifxConnectFailed : M.lifxSetFlagFailed,
        404,
      ),
    };
  if (status === 429) {
    // A spent budget (reference §2.1: Remaining ≤ 0) waits for the window's reset; any other
    // 429 (the budget still has room) only backs off.
    const waitMs = budget && budget.remaining <= 0 ? budget.resetAtMs - nowMs : undefined;
    return { ok: false, retry: true, waitMs, error: finalError(job.kind, 'rate-limit', 429) };
  }
  if (status >= 500) return { ok: false, retry: true, error: finalError(job.kind, 'server', status) };
  if (status >= 400)
    return {
      ok: false,
      retry: false,
      error: new LightError(
        'bad-request',
        job.kind === 'list' ? M.lifxConnectFailed : M.lifxSetFlagFailed,
        status,
      ),
    };
  try {
    return { ok: true, value: text === '' ? null : (JSON.parse(text) as unknown) };
  } catch {
    return { ok: false, retry: true, error: finalError(job.kind, 'server', status) };
  }
}
