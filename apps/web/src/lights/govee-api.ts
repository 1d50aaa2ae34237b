import type { GoveeDiagnostics } from '@flaglight/contract';
import { ApiError, apiCall } from '../api/client';

/** The app server's Govee routes (`/api/govee/*`): the API key goes to the server once and stays there. */

export type { GoveeDiagnostics };

/** The server says Govee must be connected again (no key stored, or Govee refused it). */
export function isGoveeReconnectError(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.code === 'govee_not_connected' || error.code === 'govee_key_refused')
  );
}

export async function fetchGoveeStatus(): Promise<boolean> {
  return (await apiCall('GET /api/govee/status')).connected;
}

/** Checks the key with Govee (one device list) and stores it on the server; answers the light count. */
export async function connectGovee(apiKey: string): Promise<number> {
  return (await apiCall('POST /api/govee/connect', { body: { apiKey } })).lights;
}

export async function disconnectGovee(): Promise<void> {
  await apiCall('POST /api/govee/disconnect');
}

export function fetchGoveeDiagnostics(): Promise<GoveeDiagnostics> {
  return apiCall('GET /api/govee/diagnostics');
}

const MODE_TEXTS: Record<GoveeDiagnostics['budget']['mode'], string> = {
  normal: 'every flag, colour and brightness',
  saving: 'colours only (brightness and fastest laps skipped to save budget)',
  track_only: 'track-wide flags only (red, green, chequered, safety car, VSC) to save budget',
  exhausted: 'nothing until the budget resets',
};

/** The budget lines Settings shows (reference §2.2: 10,000 a day, 10 per device per minute). */
export function describeGoveeBudget(budget: GoveeDiagnostics['budget']): string[] {
  const resets = new Date(budget.dailyResetsAt);
  const at = Number.isNaN(resets.getTime())
    ? budget.dailyResetsAt
    : resets.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return [
    `Daily budget: ${budget.dailyRemaining.toLocaleString('en')} of ${budget.dailyLimit.toLocaleString('en')} requests left (resets at ${at}).`,
    `Pacing: at most ${budget.perDeviceMinuteLimit} requests per light per minute; ${budget.sentToday.toLocaleString('en')} sent today.`,
    `Flags shown: ${MODE_TEXTS[budget.mode]}.`,
  ];
}
