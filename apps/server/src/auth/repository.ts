import crypto from 'node:crypto';
import { normalizeEmail, type Plan, type User } from '@flaglight/core';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { UsersTable } from '../db/schema.js';
import { accessOf } from './access.js';

export type UserRow = Selectable<UsersTable>;

/** Turns a row into SPEC §3's User; `isAdmin` comes from accessOf (the one place roles are decided). */
export function toUser(row: UserRow, adminEmails: readonly string[]): User {
  return {
    id: row.id,
    email: row.email,
    plan: row.plan,
    isAdmin: accessOf(row, adminEmails).isAdmin,
    createdAt: row.created_at,
    lastLogin: row.last_login,
    trialExpires: row.trial_expires,
    emailVerified: row.email_verified_at !== null,
  };
}

export function createUsersRepository(db: Db) {
  return {
    /** The account of an address, compared in its normal form (an unnormalizable one has none). */
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const normalized = normalizeEmail(email);
      if (!normalized.ok) return undefined;
      return db.selectFrom('users').selectAll().where('email', '=', normalized.value).executeTakeFirst();
    },

    async findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts a user; returns undefined when the e-mail is taken (in its normal form). */
    async insert(input: {
      email: string;
      passwordHash: string;
      plan: Plan;
      isAdmin?: boolean;
      now: Date;
      trialExpires: Date | null;
      /** Set only where the address is known to be owned (the demo admin). */
      emailVerifiedAt?: Date | null;
    }): Promise<UserRow | undefined> {
      const email = normalizeEmail(input.email);
      if (!email.ok) throw new TypeError(email.error);
      const row: UserRow = {
        id: crypto.randomUUID(),
        email: email.value,
        password_hash: input.passwordHash,
        plan: input.plan,
        is_admin: input.isAdmin ? 1 : 0,
        created_at: input.now.toISOString(),
        last_login: null,
        trial_expires: input.trialExpires ? input.trialExpires.toISOString() : null,
        email_verified_at: input.emailVerifiedAt ? input.emailVerifiedAt.toISOString() : null,
      };
      const inserted = await db
        .insertInto('users')
        .values(row)
        .onConflict((oc) => oc.column('email').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? row : undefined;
    },

    async recordLogin(id: string, now: Date): Promise<void> {
      await db.updateTable('users').set({ last_login: now.toISOString() }).where('id', '=', id).execute();
    },

    /** Marks the address proved (keeps the first proof's time). */
    async markEmailVerified(id: string, now: Date): Promise<void> {
      await db
        .updateTable('users')
        .set({ email_verified_at: now.toISOString() })
        .where('id', '=', id)
        .where('email_verified_at', 'is', null)
        .execute();
    },

    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    },

    async setPlan(id: string, plan: Plan): Promise<void> {
      await db.updateTable('users').set({ plan }).where('id', '=', id).execute();
    },

    async list(): Promise<UserRow[]> {
      return db.selectFrom('users').selectAll().orderBy('created_at', 'desc').execute();
    },

    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async countByPlan(): Promise<Record<Plan, number>> {
      const rows = await db
        .selectFrom('users')
        .select(['plan', db.fn.countAll<number | string>().as('n')])
        .groupBy('plan')
        .execute();
      const counts: Record<Plan, number> = { trial: 0, lifetime: 0, pro: 0 };
      for (const r of rows) counts[r.plan] = Number(r.n);
      return counts;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

export function createAuthSessionsRepository(db: Db) {
  return {
    async insert(tokenHash: string, userId: string, now: Date, expiresAt: Date): Promise<void> {
      await db
        .insertInto('auth_sessions')
        .values({
          token_hash: tokenHash,
          user_id: userId,
          created_at: now.toISOString(),
          expires_at: expiresAt.toISOString(),
        })
        .execute();
    },

    /** The user behind a live session token, or undefined when unknown or expired. */
    async findUser(tokenHash: string, now: Date): Promise<UserRow | undefined> {
      return db
        .selectFrom('auth_sessions')
        .innerJoin('users', 'users.id', 'auth_sessions.user_id')
        .selectAll('users')
        .where('auth_sessions.token_hash', '=', tokenHash)
        .where('auth_sessions.expires_at', '>', now.toISOString())
        .executeTakeFirst();
    },

    async delete(tokenHash: string): Promise<void> {
      await db.deleteFrom('auth_sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteForUser(userId: string): Promise<void> {
      await db.deleteFrom('auth_sessions').where('user_id', '=', userId).execute();
    },

    async deleteExpired(now: Date): Promise<void> {
      await db.deleteFrom('auth_sessions').where('expires_at', '<=', now.toISOString()).execute();
    },
  };
}

export type AuthSessionsRepository = ReturnType<typeof createAuthSessionsRepository>;
