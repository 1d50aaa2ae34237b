// Confirming an account's e-mail address: the link mailed at sign-up (or on resend), and its use.
import { HttpError, unauthorized } from '../http/errors.js';
import { createEmailVerificationsRepository } from './email-verifications-repository.js';
import { sendInBackground, verificationMail } from './mails.js';
import { AUTH_MESSAGES } from './messages.js';
import type { UserRow, UsersRepository } from './repository.js';
import type { AuthServiceDeps } from './service-deps.js';
import { createToken, hashToken } from './tokens.js';
import { DAY_MS, describeWait, verificationWaitMs } from './verification-limits.js';

/** How long an e-mail confirmation link works. */
export const EMAIL_VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;

/** The resend button's answer: sent (or nothing to send), or wait this long. */
export type ResendResult =
  { ok: true; sent: boolean; message: string } | { ok: false; retryAfterSeconds: number; message: string };

export function createEmailVerification(deps: AuthServiceDeps, users: UsersRepository) {
  const verifications = createEmailVerificationsRepository(deps.db);

  /** Stores a new confirmation link for the account and mails it to its address. */
  async function send(row: Pick<UserRow, 'id' | 'email'>, now: Date): Promise<void> {
    const token = createToken();
    await verifications.insert({
      tokenHash: hashToken(token),
      userId: row.id,
      now,
      expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_MS),
    });
    const link = `${deps.config.publicUrl}/#/verify-email?token=${encodeURIComponent(token)}`;
    sendInBackground(deps, verificationMail(row.email, link), 'e-mail confirmation');
  }

  return {
    send,

    /**
     * Confirms the signed-in user's address with a link from the sign-up (or resend) e-mail; each
     * link works once, and only for the account it was made for: the mail reaches whoever owns
     * the mailbox, who may not be the person who signed up with it. Another account's link is
     * refused and stays usable for its own account.
     */
    async verifyEmail(token: string, userId: string): Promise<void> {
      const trimmed = token.trim();
      const result =
        trimmed === ''
          ? 'invalid'
          : await verifications.confirm({ tokenHash: hashToken(trimmed), userId, now: deps.now() });
      if (result === 'other-account') throw new HttpError(400, AUTH_MESSAGES.verifyLinkOtherAccount);
      if (result !== 'confirmed') throw new HttpError(400, AUTH_MESSAGES.verifyLinkInvalid);
    },

    /** The dashboard's resend button: a new link, at most VERIFICATION_MAILS_PER_HOUR an hour and VERIFICATION_MAILS_PER_DAY a day. */
    async resendVerification(userId: string): Promise<ResendResult> {
      const row = await users.findById(userId);
      if (!row) throw unauthorized(AUTH_MESSAGES.sessionExpired);
      if (row.email_verified_at !== null)
        return { ok: true, sent: false, message: AUTH_MESSAGES.alreadyVerified };
      const now = deps.now();
      const sent = await verifications.sentSince(row.id, new Date(now.getTime() - DAY_MS));
      const retryAfterMs = verificationWaitMs(sent, now);
      if (retryAfterMs > 0) {
        const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
        return {
          ok: false,
          retryAfterSeconds,
          message: `Too many requests. Please wait ${describeWait(retryAfterSeconds)} and try again.`,
        };
      }
      await send(row, now);
      return { ok: true, sent: true, message: AUTH_MESSAGES.verificationSent };
    },
  };
}
