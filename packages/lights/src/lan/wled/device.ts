import http from 'node:http';
import type { LightColor } from '@flaglight/core';
import type { LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { TargetScheduler, type Timers } from '../../timers.js';
import { wledBaseUrl, wledRequest, type WledAddress } from './http.js';
import { findWledEffects, parseWledInfo, type WledEffectIds, type WledInfo } from './looks.js';

// One WLED device as the driver keeps it: its address, what it read, its one-slot queue.

export interface Write {
  body: unknown;
  /** A write that is itself the busy retry is not retried again. */
  retry: boolean;
  /** True once the device took it, false when a newer look replaced it first. */
  resolve: (sent: boolean) => void;
  reject: (error: unknown) => void;
}

export interface Device {
  address: WledAddress;
  agent: http.Agent;
  info: WledInfo | null;
  effects: WledEffectIds | null;
  reachable: boolean;
  busy: boolean;
  /** The newest look waiting behind the request in flight: one slot, a newer look replaces it. */
  next: Write | null;
  /** The look to send again when the device answers again (a strobe's solid colour). */
  lastLook: LightStateCommand | null;
  /** Counts looks, so a busy retry or a strobe guard knows whether a newer look came. */
  generation: number;
  flashes: TargetScheduler;
  timers: { probe: unknown; guard: unknown; retry: unknown };
  warnedLive: boolean;
  connecting: Promise<void> | null;
}

export const sameAddress = (a: WledAddress, b: WledAddress) => a.host === b.host && a.port === b.port;

export function requireLook(color: LightColor, brightness: number): void {
  if (!Number.isFinite(color.hue) || !Number.isFinite(color.saturation))
    throw new LightError('bad-request', `Not a colour: hue ${color.hue}, saturation ${color.saturation}`);
  if (!Number.isFinite(brightness) || brightness < 0 || brightness > 1)
    throw new LightError('bad-request', `Brightness must be 0 to 1, not ${brightness}`);
}

export function createWledDevice(address: WledAddress, timers: Timers): Device {
  return {
    address: { ...address },
    // One socket: never two requests at once to a device that reboots when pushed (reference §3.4).
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    info: null,
    effects: null,
    reachable: true,
    busy: false,
    next: null,
    lastLook: null,
    generation: 0,
    flashes: new TargetScheduler(timers),
    timers: { probe: null, guard: null, retry: null },
    warnedLive: false,
    connecting: null,
  };
}

/**
 * `GET /json/info` then `GET /json/effects`: what the device is and its effect ids by name. Rejects
 * with a `LightError` (kind `server` when the answer is not WLED's).
 */
export async function readWledDevice(
  address: WledAddress,
  agent: http.Agent,
  timeoutMs?: number,
): Promise<{ info: WledInfo; effects: WledEffectIds }> {
  const base = wledBaseUrl(address);
  const timeout = timeoutMs === undefined ? {} : { timeoutMs };
  const answer = await wledRequest(`${base}/json/info`, { method: 'GET', agent, ...timeout });
  const info = answer.status === 200 ? parseWledInfo(answer.body) : null;
  if (!info)
    throw new LightError(
      'server',
      `${address.host}:${address.port} is not a WLED device (HTTP ${answer.status})`,
    );
  const effects = await wledRequest(`${base}/json/effects`, { method: 'GET', agent, ...timeout });
  return { info, effects: findWledEffects(effects.status === 200 ? effects.body : null) };
}
