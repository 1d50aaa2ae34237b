import { computeTrialExpiry, normalizeEmail, type User } from '@flaglight/core';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { HttpError, unauthorized } from '../http/errors.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { accessOf } from './access.js';
import { createEmailVerificationsRepository } from './email-verifications-repository.js';
import type { LoginThrottle } from './login-throttle.js';
import { createPasswordResetsRepository } from './password-resets-repository.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { createAuthSessionsRepository, createUsersRepository, toUser, type UserRow } from './repository.js';
import { createToken, hashToken } from './tokens.js';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** How long an e-mail confirmation link works. */
export const EMAIL_VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;
/** Confirmation mails per account per hour, the sign-up's included (the resend button's limit). */
export const VERIFICATION_MAILS_PER_HOUR = 4;
/**
 * And per day: whoever signed up with someone else's address must not be able to keep mailing
 * that person (4 an hour would still be 96 a day).
 */
export const VERIFICATION_MAILS_PER_DAY = 8;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const VERIFICATION_LIMITS = [
  { windowMs: HOUR_MS, max: VERIFICATION_MAILS_PER_HOUR },
  { windowMs: DAY_MS, max: VERIFICATION_MAILS_PER_DAY },
] as const;

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists. Sign in instead.',
  noToken: 'No authentication token found',
  sessionExpired: 'Your session has expired. Please sign in again.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please request a new password reset.',
  resetRequested: 'If an account exists for that email, a password reset link is on its way.',
  passwordUpdated: 'Your password has been reset. You can now sign in.',
  verifyLinkInvalid:
    'This confirmation link is invalid, used or expired. Sign in and send a new one from the dashboard.',
  verifyLinkOtherAccount:
    'This confirmation link belongs to another account. Sign in with the account that signed up with this address, then open the link again.',
  emailVerified: 'Your e-mail address is confirmed. Thank you!',
  verificationSent: 'A new confirmation link is on its way. Check your inbox.',
  alreadyVerified: 'Your e-mail address is already confirmed.',
} as const;

/** The resend button's answer: sent (or nothing to send), or wait this long. */
export type ResendResult =
  { ok: true; sent: boolean; message: string } | { ok: false; retryAfterSeconds: number; message: string };

function describeWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

export interface AuthServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  /** Race start times of the calendar, for the trial length rule (DESIGN §6). */
  raceStarts: () => Promise<Date[]>;
  /** Growing waits after failed sign-ins per e-mail address (login-throttle.ts). */
  loginThrottle: LoginThrottle;
}

export interface Authenticated {
  user: User;
  row: UserRow;
  tokenHash: string;
}

export function createAuthService(deps: AuthServiceDeps) {
  const users = createUsersRepository(deps.db);
  const sessions = createAuthSessionsRepository(deps.db);
  const resets = createPasswordResetsRepository(deps.db);
  const verifications = createEmailVerificationsRepository(deps.db);
  const admins = deps.config.adminEmails;

  // Sent in the background, after the answer has left: no answer waits for the mail server, and
  // none carries the mailer's own work (building the message, opening the connection), which
  // would tell by its timing that an account exists.
  function sendInBackground(message: MailMessage, what: string): void {
    setImmediate(() => {
      deps.mailer
        .send(message)
        .catch((error: unknown) =>
          deps.logger.error({ err: error, to: message.to }, `${what} e-mail failed`),
        );
    });
  }

  /** Stores a new confirmation link for the account and mails it to its address. */
  async function sendVerification(row: Pick<UserRow, 'id' | 'email'>, now: Date): Promise<void> {
    const token = createToken();
    await verifications.insert({
      tokenHash: hashToken(token),
      userId: row.id,
      now,
      expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_MS),
    });
    const link = `${deps.config.publicUrl}/#/verify-email?token=${encodeURIComponent(token)}`;
    sendInBackground(
      {
        to: row.email,
        subject: 'Confirm your Flaglight e-mail address',
        text: [
          'Welcome to Flaglight!',
          '',
          `Open this link within 48 hours, signed in to the Flaglight account you created with this address, to confirm that it is yours:\n${link}`,
          '',
          'If you did not create a Flaglight account, someone typed your address. Opening the link does nothing for their account: it confirms only when opened signed in to that account.',
          'To take the account over, use "Forgot your password?" on the sign-in page; or ignore this e-mail.',
        ].join('\n'),
        html: `<p>Welcome to Flaglight!</p><p><a href="${link}">Confirm your e-mail address</a>, signed in to the Flaglight account you created with this address (the link works for 48 hours).</p><p>If you did not create a Flaglight account, someone typed your address. Opening the link does nothing for their account: it confirms only when opened signed in to that account. To take the account over, use "Forgot your password?" on the sign-in page; or ignore this e-mail.</p>`,
      },
      'e-mail confirmation',
    );
  }

  async function openSession(row: UserRow): Promise<{ token: string; user: User }> {
    const now = deps.now();
    const token = createToken();
    await sessions.insert(hashToken(token), row.id, now, new Date(now.getTime() + SESSION_TTL_MS));
    return { token, user: toUser(row, admins) };
  }

  return {
    users,

    /** The user as stored now (after an upgrade), or null when the account is gone. */
    async freshUser(id: string | number): Promise<User | null> {
      const row = await users.findById(String(id));
      return row ? toUser(row, admins) : null;
    },

    async signup(input: { email: string; password: string }): Promise<{ token: string; user: User }> {
      const now = deps.now();
      let raceStarts: Date[] = [];
      try {
        raceStarts = await deps.raceStarts();
      } catch (error) {
        deps.logger.warn({ err: error }, 'calendar unavailable for the trial length; using 7 days');
      }
      const row = await users.insert({
        email: input.email,
        passwordHash: await hashPassword(input.password),
        plan: 'trial',
        now,
        trialExpires: computeTrialExpiry({ signupAt: now, raceStarts }),
      });
      if (!row) throw new HttpError(409, AUTH_MESSAGES.emailTaken);
      await users.recordLogin(row.id, now);
      await sendVerification(row, now);
      return openSession({ ...row, last_login: now.toISOString() });
    },

    async login(input: { email: string; password: string }): Promise<{ token: string; user: User }> {
      await deps.loginThrottle.begin(input.email);
      const row = await users.findByEmail(input.email);
      const matches = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), input.password);
      if (!row || !matches) throw unauthorized(AUTH_MESSAGES.invalidCredentials);
      await deps.loginThrottle.clear(input.email);
      const now = deps.now();
      await users.recordLogin(row.id, now);
      return openSession({ ...row, last_login: now.toISOString() });
    },

    /** Paid features are open to this account now (auth/access.ts decides). */
    planActive(row: UserRow): boolean {
      return accessOf(row, admins).planActiveAt(deps.now());
    },

    /** The signed-in user behind a bearer header; throws 401 with SPEC's texts. */
    /** The User an account row stands for (rights from access.ts). */
    userOf(row: UserRow): User {
      return toUser(row, admins);
    },

    async authenticate(authorization: string | undefined): Promise<Authenticated> {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      if (!token) throw unauthorized(AUTH_MESSAGES.noToken);
      const tokenHash = hashToken(token);
      const row = await sessions.findUser(tokenHash, deps.now());
      if (!row) throw unauthorized(AUTH_MESSAGES.sessionExpired);
      return { user: toUser(row, admins), row, tokenHash };
    },

    async logout(authorization: string | undefined): Promise<void> {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      if (token) await sessions.delete(hashToken(token));
    },

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
      sendInBackground(
        {
          to: address,
          subject: 'Reset your Flaglight password',
          text: [
            'Someone (hopefully you) asked to reset the password of your Flaglight account.',
            '',
            `Open this link within one hour to choose a new password:\n${link}`,
            '',
            'If you did not ask for this, ignore this e-mail: your password stays as it is.',
          ].join('\n'),
          html: `<p>Someone (hopefully you) asked to reset the password of your Flaglight account.</p><p><a href="${link}">Choose a new password</a> (the link works for one hour).</p><p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>`,
        },
        'password reset',
      );
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
      // The wait until the mail that fills each full window leaves it; the longest one counts.
      let retryAfterMs = 0;
      for (const { windowMs, max } of VERIFICATION_LIMITS) {
        const inWindow = sent.filter((at) => at.getTime() > now.getTime() - windowMs);
        const oldest = inWindow[inWindow.length - max];
        if (inWindow.length >= max && oldest) {
          retryAfterMs = Math.max(retryAfterMs, oldest.getTime() + windowMs - now.getTime());
        }
      }
      if (retryAfterMs > 0) {
        const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
        return {
          ok: false,
          retryAfterSeconds,
          message: `Too many requests. Please wait ${describeWait(retryAfterSeconds)} and try again.`,
        };
      }
      await sendVerification(row, now);
      return { ok: true, sent: true, message: AUTH_MESSAGES.verificationSent };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
