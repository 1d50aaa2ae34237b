import type { HueDiagnostics, HueDiagnosticsReason } from '@flaglight/contract';
import { HttpError } from '../http/errors.js';
import type { HueConnectionStore } from './connection-store.js';
import type { HueLightsClient } from './lights-client.js';

// The answer's shape is the contract's (GET /hue/diagnostics).
export type { HueDiagnostics, HueDiagnosticsReason };

export interface HueDiagnosticsDeps {
  configured: boolean;
  connection: HueConnectionStore;
  lights: HueLightsClient;
}

function problem(
  reason: HueDiagnosticsReason,
  message: string,
  instructions: string,
  details: string | null = null,
): HueDiagnostics {
  // `connected` answers "do the lights work from here": any problem is a diagnostics failure.
  return { connected: false, bridges: 0, lights: 0, reason, message, instructions, error: message, details };
}

const RECONNECT = 'Press Connect Hue in Settings to sign in to Hue again.';

/** What stands between the user and their lights, in words for the Settings alert (SPEC §8). */
export function createHueDiagnostics(deps: HueDiagnosticsDeps) {
  return async function diagnose(userId: string): Promise<HueDiagnostics> {
    if (!deps.configured)
      return problem(
        'not_configured',
        'Hue is not configured on this server',
        'The server needs HUE_CLIENT_ID and HUE_CLIENT_SECRET from developers.meethue.com.',
      );
    const row = await deps.connection.find(userId);
    if (!row)
      return problem(
        'not_connected',
        'Hue is not connected',
        'Press Connect Hue in Settings and allow Flaglight in the window that opens.',
      );
    if (row.status !== 'connected')
      return problem('token_expired', 'The Hue authorization expired', RECONNECT);
    if (!row.application_key)
      return problem(
        'no_application_key',
        'No Hue application key yet',
        'Press Create Application Key in Settings, then store the key it shows.',
      );
    try {
      const lights = await deps.lights.listLights(userId);
      const bridges = await deps.lights.clip(userId, 'GET', 'bridge');
      const bridgeCount = bridges.ok ? bridges.value.length : 1;
      return {
        connected: true,
        bridges: bridgeCount,
        lights: lights.length,
        reason: null,
        message: `Found ${bridgeCount} bridge${bridgeCount === 1 ? '' : 's'} with ${lights.length} light${
          lights.length === 1 ? '' : 's'
        }`,
        instructions: null,
      };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return explain(error);
    }
  };
}

function explain(error: HttpError): HueDiagnostics {
  const details = typeof error.extra.details === 'string' ? error.extra.details : null;
  if (error.code === 'hue_not_connected')
    return problem('token_expired', 'The Hue authorization expired', RECONNECT, details);
  if (error.code === 'hue_unauthorized')
    return problem(
      'application_key_rejected',
      'The Hue bridge did not accept the application key',
      'Press Create Application Key in Settings to pair again.',
      details,
    );
  if (error.code === 'hue_busy')
    return problem(
      'bridge_busy',
      'The Hue bridge is busy',
      'Too many light commands reached it at once. Wait a few seconds, then run the diagnostics again.',
      details,
    );
  return problem(
    'bridge_unreachable',
    'The Hue bridge could not be reached',
    'Check that the bridge is powered, connected to your router and online in the Hue app, then run the diagnostics again.',
    details,
  );
}
