import type { AuthLevel } from '@flaglight/contract';
import { isPlanActive, normalizeEmail } from '@flaglight/core';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/schema.js';

/** A user row as the database gives it (repository.ts names it UserRow). */
type UserRow = Selectable<UsersTable>;

/** What an account may do. Decided here and nowhere else (routes, services and admin read it). */
export interface Access {
  /** Admin rights: the row's flag, or a verified address listed in ADMIN_EMAILS. */
  isAdmin: boolean;
  /** A configured operator account (a verified ADMIN_EMAILS address): bypasses trial checks (DESIGN §6). */
  isOperator: boolean;
  /** Paid features are open at `now`: a paid plan, a running trial, or an admin/operator. */
  planActiveAt(now: Date): boolean;
}

/**
 * An address in ADMIN_EMAILS grants rights only once its owner proved it (the sign-up link or
 * a password reset): anyone can sign up with any address, so the address alone proves nothing.
 * Both sides are compared in their normal form (config normalizes the list).
 */
function isOperatorRow(row: UserRow, adminEmails: readonly string[]): boolean {
  if (row.email_verified_at === null) return false;
  const email = normalizeEmail(row.email);
  return email.ok && adminEmails.includes(email.value);
}

export function accessOf(row: UserRow, adminEmails: readonly string[]): Access {
  const isOperator = isOperatorRow(row, adminEmails);
  const isAdmin = row.is_admin === 1 || isOperator;
  return {
    isAdmin,
    isOperator,
    planActiveAt: (now) =>
      isAdmin ||
      isPlanActive({ plan: row.plan, createdAt: row.created_at, trialExpires: row.trial_expires }, { now }),
  };
}

/**
 * A linked companion's device token opens only `device` routes (event streams, live state,
 * preferences): never the account's password, payments, admin or deletion, which need a session.
 */
export function deviceTokenMayCall(level: AuthLevel): boolean {
  return level === 'device';
}
