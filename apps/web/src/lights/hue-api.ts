import { HUE_TEST_PULSE_BRIGHTNESS, HUE_TEST_PULSE_DURATION_MS } from '@flaglight/core';
import { apiRequest } from '../api/client';

/** The app server's Hue remote routes (SPEC §7); the OAuth tokens stay on the server. */

export interface HueDiagnostics {
  connected: boolean;
  bridges?: unknown;
  lights?: unknown;
  reason?: string;
  message?: string;
  instructions?: string | string[];
  error?: string;
  details?: string;
}

export interface HueStatus {
  connected: boolean;
  /** The server holds an application key for the bridge (absent on older servers: assumed). */
  hasApplicationKey: boolean;
}

export async function fetchHueStatus(signal?: AbortSignal): Promise<HueStatus> {
  const body = await apiRequest<{ connected?: unknown; hasApplicationKey?: unknown }>('/auth/hue/status', {
    signal,
  });
  const connected = body?.connected === true;
  return { connected, hasApplicationKey: connected && body?.hasApplicationKey !== false };
}

export async function startHueAuth(): Promise<string> {
  const body = await apiRequest<{ authUrl?: unknown }>('/auth/hue/start');
  if (typeof body?.authUrl !== 'string' || body.authUrl === '') throw new Error('No authUrl');
  return body.authUrl;
}

export function fetchHueDiagnostics(): Promise<HueDiagnostics> {
  return apiRequest<HueDiagnostics>('/hue/diagnostics');
}

export async function createHueAppKey(): Promise<string> {
  const body = await apiRequest<{ success?: unknown; applicationKey?: unknown }>('/hue/create-app-key', {
    method: 'POST',
  });
  if (body?.success === false || typeof body?.applicationKey !== 'string') throw new Error('No key');
  return body.applicationKey;
}

export async function storeHueAppKey(applicationKey: string): Promise<void> {
  const body = await apiRequest<{ success?: unknown }>('/hue/store-app-key', { body: { applicationKey } });
  if (body?.success === false) throw new Error('Not stored');
}

export async function disconnectHue(): Promise<void> {
  await apiRequest('/auth/hue/disconnect', { method: 'POST' });
}

/** SPEC §7 test pulse: on, brightness 100, green xy 0.3/0.6, 1000 ms. */
export async function pulseHueLight(id: string): Promise<void> {
  await apiRequest(`/hue/lights/${encodeURIComponent(id)}/state`, {
    method: 'PUT',
    body: {
      on: true,
      brightness: HUE_TEST_PULSE_BRIGHTNESS,
      color: { xy: { x: 0.3, y: 0.6 } },
      duration: HUE_TEST_PULSE_DURATION_MS,
    },
  });
}

/** A count from a diagnostics field that may be a number or a list. */
export function countOf(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.length;
  return 0;
}

/** The alert text for a diagnostics answer (SPEC §8): failure shows error, details, instructions. */
export function describeDiagnostics(result: HueDiagnostics): string {
  if (result.connected) {
    const bridges = countOf(result.bridges);
    const lights = countOf(result.lights);
    return `Hue diagnostics: connected. Bridges found: ${bridges}. Lights found: ${lights}.`;
  }
  const instructions = Array.isArray(result.instructions)
    ? result.instructions.join('\n')
    : (result.instructions ?? '');
  return [
    `Hue diagnostics failed: ${result.error ?? result.reason ?? 'not connected'}`,
    result.details ?? result.message ?? '',
    instructions,
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}
