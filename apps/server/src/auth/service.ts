import { computeTrialExpiry, type User } from '@flaglight/core';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { HttpError, unauthorized } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';
import { accessOf } from './access.js';
import { createPasswordResetsRepository } from './password-resets-repository.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { createAuthSessionsRepository, createUsersRepository, toUser, type UserRow } from './repository.js';
import { createToken, hashToken } from './tokens.js';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists. Sign in instead.',
  noToken: 'No authentication token found',
  sessionExpired: 'Your session has expired. Please sign in again.',
  resetLinkInvalid: 'This reset link is invalid or has expired. Please request a new password reset.',
  resetRequested: 'If an account exists for that email, a password reset link is on its way.',
  passwordUpdated: 'Your password has been reset. You can now sign in.',
} as const;

export interface AuthServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  /** Race start times of the calendar, for the trial length rule (DESIGN §6). */
  raceStarts: () => Promise<Date[]>;
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
  const admins = deps.config.adminEmails;

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
      return openSession({ ...row, last_login: now.toISOString() });
    },

    async login(input: { email: string; password: string }): Promise<{ token: string; user: User }> {
      const row = await users.findByEmail(input.email);
      const matches = await verifyPassword(row?.password_hash ?? (await dummyPasswordHash()), input.password);
      if (!row || !matches) throw unauthorized(AUTH_MESSAGES.invalidCredentials);
      const now = deps.now();
      await users.recordLogin(row.id, now);
      return openSession({ ...row, last_login: now.toISOString() });
    },

    /** Paid features are open to this account now (auth/access.ts decides). */
    planActive(row: UserRow): boolean {
      return accessOf(row, admins).planActiveAt(deps.now());
    },

    /** The signed-in user behind a bearer header; throws 401 with SPEC's texts. */
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

    /** Always resolves the same way whether or not the e-mail exists (DESIGN §9). */
    async requestPasswordReset(email: string): Promise<void> {
      const row = await users.findByEmail(email);
      if (!row) return;
      const now = deps.now();
      const token = createToken();
      await resets.insert({
        tokenHash: hashToken(token),
        userId: row.id,
        now,
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
      });
      const link = `${deps.config.publicUrl}/#/reset-password?token=${encodeURIComponent(token)}`;
      // Sent in the background: the answer must not reveal (by timing) that the account exists.
      deps.mailer
        .send({
          to: row.email,
          subject: 'Reset your Flaglight password',
          text: [
            'Someone (hopefully you) asked to reset the password of your Flaglight account.',
            '',
            `Open this link within one hour to choose a new password:\n${link}`,
            '',
            'If you did not ask for this, ignore this e-mail: your password stays as it is.',
          ].join('\n'),
          html: `<p>Someone (hopefully you) asked to reset the password of your Flaglight account.</p><p><a href="${link}">Choose a new password</a> (the link works for one hour).</p><p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>`,
        })
        .catch((error: unknown) =>
          deps.logger.error({ err: error, to: row.email }, 'password reset e-mail failed'),
        );
    },

    async resetPassword(input: { token: string; password: string }): Promise<void> {
      const now = deps.now();
      const tokenHash = hashToken(input.token);
      const passwordHash = await hashPassword(input.password);
      const userId = await resets.resetPassword({ tokenHash, now, passwordHash });
      if (!userId) throw new HttpError(400, AUTH_MESSAGES.resetLinkInvalid);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
