import type { HueDiagnostics as ServerHueDiagnostics } from '@flaglight/contract';
import { HUE_TEST_PULSE_BRIGHTNESS, HUE_TEST_PULSE_DURATION_MS } from '@flaglight/core';
import { ApiError, apiCall } from '../api/client';

/** The app server's Hue remote routes (SPEC §7); the OAuth tokens stay on the server. */

/** A diagnostics answer, or one the client makes up when the request itself failed. */
export type HueDiagnostics = Partial<ServerHueDiagnostics> & { connected: boolean };

export interface HueStatus {
  connected: boolean;
  /** The server holds an application key for the bridge. */
  hasApplicationKey: boolean;
}

/** SPEC §8: the server says Hue must be connected again (not connected, or the key refused). */
export function isHueReconnectError(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.code === 'hue_not_connected' || error.code === 'hue_unauthorized')
  );
}

export async function fetchHueStatus(signal?: AbortSignal): Promise<HueStatus> {
  const { connected, hasApplicationKey } = await apiCall('GET /auth/hue/status', {}, { signal });
  return { connected, hasApplicationKey: connected && hasApplicationKey };
}

export async function startHueAuth(): Promise<string> {
  return (await apiCall('GET /auth/hue/start')).authUrl;
}

export function fetchHueDiagnostics(): Promise<HueDiagnostics> {
  return apiCall('GET /hue/diagnostics');
}

export async function createHueAppKey(): Promise<string> {
  return (await apiCall('POST /hue/create-app-key')).applicationKey;
}

export async function storeHueAppKey(applicationKey: string): Promise<void> {
  await apiCall('POST /hue/store-app-key', { body: { applicationKey } });
}

export async function disconnectHue(): Promise<void> {
  await apiCall('POST /auth/hue/disconnect');
}

/** SPEC §7 test pulse: on, brightness 100, green xy 0.3/0.6, 1000 ms. */
export async function pulseHueLight(id: string): Promise<void> {
  await apiCall('PUT /hue/lights/:id/state', {
    params: { id },
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
