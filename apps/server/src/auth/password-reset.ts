// Resetting a forgotten password: the link mailed on request, and the reset it allows.
import { normalizeEmail } from '@flaglight/core';
import { HttpError } from '../http/errors.js';
import { passwordResetMail, sendInBackground } from './mails.js';
import { AUTH_MESSAGES } from './messages.js';
import { createPasswordResetsRepository } from './password-resets-repository.js';
import { hashPassword } from './passwords.js';
import type { UsersRepository } from './repository.js';
import type { AuthServiceDeps } from './service-deps.js';
import { createToken, hashToken } from './tokens.js';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export function createPasswordReset(deps: AuthServiceDeps, users: UsersRepository) {
  const resets = createPasswordResetsRepository(deps.db);

  return {
    /**
     * Always resolves the same way, and does the same work (a token made and hashed, one
     * insert-select statement), whether or not the e-mail exists (DESIGN §9).
     */
    async requestPasswordReset(email: string): Promise<void> {
      const now = deps.now();
      const token = createToken();
      const normalized = normalizeEmail(email);
      const address = normalized.ok ? normalized.value : '';
      const stored = await resets.insertForEmail({
        email: address,
        tokenHash: hashToken(token),
        now,
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
      });
      if (!stored) return;
      const link = `${deps.config.publicUrl}/#/reset-password?token=${encodeURIComponent(token)}`;
      sendInBackground(deps, passwordResetMail(address, link), 'password reset');
    },

    /**
     * A reset proves the mailbox: it confirms the address, spends every other reset link and ends
     * every session of the account (an unverified squatter on the address is taken over).
     */
    async resetPassword(input: { token: string; password: string }): Promise<void> {
      const now = deps.now();
      const tokenHash = hashToken(input.token);
      const passwordHash = await hashPassword(input.password);
      const userId = await resets.resetPassword({ tokenHash, now, passwordHash });
      if (!userId) throw new HttpError(400, AUTH_MESSAGES.resetLinkInvalid);
      // The link proved the mailbox: its owner signs in at once, whatever an attacker left behind.
      const row = await users.findById(String(userId));
      if (row) await deps.loginThrottle.clear(row.email);
    },
  };
}
