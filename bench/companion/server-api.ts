import { call } from '../shared/api.js';
import { FIXTURE } from './config.js';

interface PreferencesDocument {
  version: number;
  preferences: { delay: { enabled: boolean; seconds: number } } & Record<string, unknown>;
}

export async function setDelay(base: string, token: string, seconds: number): Promise<void> {
  const current = await call<PreferencesDocument>(base, 'GET', '/api/me/preferences', undefined, token);
  await call(
    base,
    'PUT',
    '/api/me/preferences',
    {
      version: current.version,
      preferences: { ...current.preferences, delay: { enabled: true, seconds } },
    },
    token,
  );
}

/**
 * Places the race at `positionMinutes` under the session key the server already follows: its dates are
 * the wall clock, so the server takes the replayed messages as new, and no client has to move to
 * another session (the server looks the live session up every 30 s, the companion as often).
 */
export async function setReplay(
  base: string,
  sessionKey: number,
  positionMinutes: number,
  speed: number,
): Promise<void> {
  await call(base, 'PUT', '/sims/openf1/_control/replays', {
    replays: [{ fixture: FIXTURE, sessionKey, positionMinutes, speed }],
  });
}

export async function setSpeed(base: string, speed: number): Promise<void> {
  await call(base, 'POST', '/sims/openf1/_control/speed', { speed });
}

/** A packet a virtual LIFX bulb received, as its receive log lists it. */
export interface Received {
  at: number;
  type: string;
  source: number;
  sequence: number;
  message: { color?: { hue: number; saturation: number; brightness: number } };
}

interface Bulb {
  id: string;
}

export async function bulbIds(base: string): Promise<string[]> {
  const state = await call<{ lifx: { bulbs: Bulb[] } }>(base, 'GET', '/sims/lan/state');
  return state.lifx.bulbs.map((b) => b.id);
}

export async function receiveLog(base: string, id: string): Promise<Received[]> {
  return (
    await call<{ received: Received[] }>(base, 'GET', `/sims/lan/_control/lifx/${encodeURIComponent(id)}/log`)
  ).received;
}
