import { VALIDATION_MESSAGES } from '@flaglight/core';
import { z } from 'zod';
import { HttpError } from '../http/errors.js';

const SITEVERIFY_TIMEOUT_MS = 10_000;

const siteverifySchema = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).optional(),
});

/** A missing, forged or expired bot-check token: the client shows the check again. */
export const botCheckFailed = (message: string) => new HttpError(400, message, {}, 'bot_check_failed');

export interface TurnstileVerifier {
  /** Resolves when the token is genuine; throws HttpError with a clear message otherwise. */
  verify(token: string | undefined, remoteIp: string): Promise<void>;
}

/** The one speaker of Turnstile's siteverify (reference §4.2); its URL comes from config. */
export function createTurnstileVerifier(options: {
  verifyUrl: string;
  secretKey: string;
}): TurnstileVerifier {
  return {
    async verify(token, remoteIp) {
      if (!token) throw botCheckFailed(VALIDATION_MESSAGES.botCheckRequired);
      let body: unknown;
      try {
        const res = await fetch(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ secret: options.secretKey, response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
        });
        body = await res.json();
      } catch {
        throw new HttpError(
          503,
          'Security verification is unavailable right now. Please try again in a moment.',
        );
      }
      const parsed = siteverifySchema.safeParse(body);
      if (!parsed.success) {
        throw new HttpError(
          503,
          'Security verification is unavailable right now. Please try again in a moment.',
        );
      }
      if (parsed.data.success) return;
      const codes = parsed.data['error-codes'] ?? [];
      if (codes.includes('timeout-or-duplicate')) {
        throw botCheckFailed('Security verification expired. Please verify again.');
      }
      if (codes.some((c) => c.includes('secret') || c === 'internal-error')) {
        throw new HttpError(
          503,
          'Security verification is unavailable right now. Please try again in a moment.',
        );
      }
      throw botCheckFailed('Security verification failed. Please try again.');
    },
  };
}
