import { computeTrialExpiry, type User } from '@flaglight/core';
import { HttpError, unauthorized } from '../http/errors.js';
import { accessOf } from './access.js';
import { createEmailVerification } from './email-verification.js';
import { AUTH_MESSAGES } from './messages.js';
import { createPasswordReset } from './password-reset.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { createAuthSessionsRepository, createUsersRepository, toUser, type UserRow } from './repository.js';
import type { AuthServiceDeps } from './service-deps.js';
import { createToken, hashToken } from './tokens.js';

export type { AuthServiceDeps } from './service-deps.js';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export { EMAIL_VERIFICATION_TTL_MS, type ResendResult } from './email-verification.js';
export { AUTH_MESSAGES } from './messages.js';
export { RESET_TOKEN_TTL_MS } from './password-reset.js';
export { VERIFICATION_MAILS_PER_DAY, VERIFICATION_MAILS_PER_HOUR } from './verification-limits.js';

/** The token of a `Bearer` header, if it has one. */
function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
}

export interface Authenticated {
  user: User;
  row: UserRow;
  tokenHash: string;
}

export function createAuthService(deps: AuthServiceDeps) {
  const users = createUsersRepository(deps.db);
  const sessions = createAuthSessionsRepository(deps.db);
  const verification = createEmailVerification(deps, users);
  const admins = deps.config.adminEmails;

  /** The calendar's race starts for the trial length; none (a 7-day trial) when it is unavailable. */
  async function raceStartsForTrial(): Promise<Date[]> {
    try {
      return await deps.raceStarts();
    } catch (error) {
      deps.logger.warn({ err: error }, 'calendar unavailable for the trial length; using 7 days');
      return [];
    }
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
      const raceStarts = await raceStartsForTrial();
      const row = await users.insert({
        email: input.email,
        passwordHash: await hashPassword(input.password),
        plan: 'trial',
        now,
        trialExpires: computeTrialExpiry({ signupAt: now, raceStarts }),
      });
      if (!row) throw new HttpError(409, AUTH_MESSAGES.emailTaken);
      await users.recordLogin(row.id, now);
      await verification.send(row, now);
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

    /** The User an account row stands for (rights from access.ts). */
    userOf(row: UserRow): User {
      return toUser(row, admins);
    },

    /** The signed-in user behind a bearer header; throws 401 with SPEC's texts. */
    async authenticate(authorization: string | undefined): Promise<Authenticated> {
      const token = bearerToken(authorization);
      if (!token) throw unauthorized(AUTH_MESSAGES.noToken);
      const tokenHash = hashToken(token);
      const row = await sessions.findUser(tokenHash, deps.now());
      if (!row) throw unauthorized(AUTH_MESSAGES.sessionExpired);
      return { user: toUser(row, admins), row, tokenHash };
    },

    async logout(authorization: string | undefined): Promise<void> {
      const token = bearerToken(authorization);
      if (token) await sessions.delete(hashToken(token));
    },

    ...createPasswordReset(deps, users),
    verifyEmail: (token: string, userId: string) => verification.verifyEmail(token, userId),
    resendVerification: (userId: string) => verification.resendVerification(userId),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
