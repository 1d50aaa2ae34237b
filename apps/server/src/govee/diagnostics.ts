// `GET /api/govee/diagnostics`: how an account's Govee connection is doing, and what to do about it.
import type { GoveeDiagnostics } from '@flaglight/contract';
import { HttpError } from '../http/errors.js';
import { GOVEE_PER_DEVICE_PER_MINUTE } from './budget.js';
import { GOVEE_MESSAGES } from './errors.js';
import type { GoveeLinkStatus } from './sender.js';

type Problem = Pick<GoveeDiagnostics, 'reason' | 'message' | 'instructions'>;

/** The budget of an account that has sent nothing yet. */
function emptyBudget(nowMs: number): GoveeDiagnostics['budget'] {
  return {
    dailyLimit: 0,
    dailyRemaining: 0,
    dailyResetsAt: new Date(Math.ceil(nowMs / 86_400_000) * 86_400_000).toISOString(),
    perDeviceMinuteLimit: GOVEE_PER_DEVICE_PER_MINUTE,
    sentToday: 0,
    mode: 'normal' as const,
  };
}

export function notConnectedDiagnostics(nowMs: number): GoveeDiagnostics {
  return {
    lights: 0,
    pendingLights: 0,
    pausedUntil: null,
    lastError: null,
    budget: emptyBudget(nowMs),
    connected: false,
    reason: 'not_connected',
    message: 'Govee is not connected',
    instructions:
      'Get a key in the Govee Home app: Profile → Settings → "Apply for API Key"; Govee e-mails it. Paste it in Settings → Govee and press Connect.',
  };
}

/** What a failed device list says about the connection; anything but an HttpError is thrown again. */
export function diagnosticProblem(error: unknown): Problem {
  if (!(error instanceof HttpError)) throw error;
  if (error.code === 'govee_key_refused' || error.code === 'govee_not_connected')
    return {
      reason: 'key_refused',
      message: GOVEE_MESSAGES.storedKeyRefused,
      instructions: 'Apply for a new key in the Govee Home app if you lost it, then connect again.',
    };
  if (error.statusCode === 429)
    return {
      reason: 'rate_limited',
      message: error.message,
      instructions: 'Wait a minute, then run the diagnostics again.',
    };
  return {
    reason: 'govee_unreachable',
    message: error.message,
    instructions: 'Check status.govee.com, then try again.',
  };
}

export function connectedDiagnostics(
  lights: number,
  problem: Problem | null,
  status: GoveeLinkStatus | undefined,
  nowMs: number,
): GoveeDiagnostics {
  return {
    connected: problem === null,
    reason: problem?.reason ?? null,
    message: problem?.message ?? `Govee connected with ${lights} light${lights === 1 ? '' : 's'}`,
    instructions: problem?.instructions ?? null,
    lights,
    budget: status
      ? {
          dailyLimit: status.dailyLimit,
          dailyRemaining: status.dailyRemaining,
          dailyResetsAt: new Date(status.dailyResetsAt).toISOString(),
          perDeviceMinuteLimit: GOVEE_PER_DEVICE_PER_MINUTE,
          sentToday: status.sentToday,
          mode: status.mode,
        }
      : emptyBudget(nowMs),
    pendingLights: status?.pendingLights ?? 0,
    pausedUntil: status?.pausedUntil ? new Date(status.pausedUntil).toISOString() : null,
    lastError: status?.lastError
      ? { message: status.lastError.message, at: new Date(status.lastError.at).toISOString() }
      : null,
  };
}
