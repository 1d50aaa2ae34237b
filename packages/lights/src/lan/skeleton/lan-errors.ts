import type { LightColor, LightStep } from '@flaglight/core';
import type { LightStateCommand } from '../../driver.js';
import { LightError, type LightErrorKind } from '../../errors.js';

// How the LAN drivers turn what went wrong into a `LightError`, and which failures mean the device
// is silent (unreachable) rather than refusing one request.

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

/** Any thrown value as a `LightError`: one already is, anything else counts as a network failure. */
export function asLightError(error: unknown): LightError {
  return error instanceof LightError ? error : new LightError('network', String(error));
}

/** A time-out, a refused or dropped connection: the device did not answer (no HTTP status). */
export function isSilence(error: LightError): boolean {
  return error.kind === 'network' || error.kind === 'timeout';
}

/** An HTTP answer outside 2xx: `server` for 5xx, `bad-request` otherwise, with its status kept. */
export function refusalError(status: number, message: string): LightError {
  const kind: LightErrorKind = status >= 500 ? 'server' : 'bad-request';
  return new LightError(kind, message, status);
}

/**
 * Runs one request; a dropped connection (kind `network`, no HTTP status) is tried once more on a
 * new one, since devices close kept-alive connections under load. Rejects with a `LightError`.
 */
export async function retryDroppedOnce<T>(run: () => Promise<T>, isClosed: () => boolean): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const light = asLightError(error);
    if (light.kind !== 'network' || light.status !== undefined || isClosed()) throw light;
    return run().catch((again: unknown) => {
      throw asLightError(again);
    });
  }
}

/** A look a device can show: hue and saturation numbers, brightness 0–1; refused clearly otherwise. */
export function requireColor(color: LightColor, brightness: number): void {
  if (!Number.isFinite(color.hue) || !Number.isFinite(color.saturation))
    throw new LightError('bad-request', `Not a colour: hue ${color.hue}, saturation ${color.saturation}`);
  if (!Number.isFinite(brightness) || brightness < 0 || brightness > 1)
    throw new LightError('bad-request', `Brightness must be 0 to 1, not ${brightness}`);
}

/** The skeleton's default look check (WLED, Nanoleaf, Home Assistant word it alike). */
export function requireLook(look: LightStateCommand): void {
  requireColor(look.color, look.brightness);
}

/** A strobe needs a period and cycles above 0. */
export function requireStrobePeriod(step: Strobe): void {
  if (!(step.periodMs > 0) || !(step.cycles > 0))
    throw new LightError('bad-request', 'A strobe needs a period and cycles above 0');
}

/** The skeleton's default strobe check: both colours, the brightness, then the period. */
export function requireStrobe(step: Strobe): void {
  requireColor(step.color, step.brightness);
  requireColor(step.fromColor, step.brightness);
  requireStrobePeriod(step);
}
