import { isPlanActive } from '@flaglight/core';
import type { UserRow } from './repository.js';

/** What an account may do. Decided here and nowhere else (routes, services and admin read it). */
export interface Access {
  /** Admin rights: the row's flag, or an address listed in ADMIN_EMAILS. */
  isAdmin: boolean;
  /** A configured operator account (ADMIN_EMAILS): bypasses trial checks (DESIGN §6). */
  isOperator: boolean;
  /** Paid features are open at `now`: a paid plan, a running trial, or an admin/operator. */
  planActiveAt(now: Date): boolean;
}

export function accessOf(row: UserRow, adminEmails: readonly string[]): Access {
  const isOperator = adminEmails.includes(row.email);
  const isAdmin = row.is_admin === 1 || isOperator;
  return {
    isAdmin,
    isOperator,
    planActiveAt: (now) =>
      isAdmin ||
      isPlanActive({ plan: row.plan, createdAt: row.created_at, trialExpires: row.trial_expires }, { now }),
  };
}
