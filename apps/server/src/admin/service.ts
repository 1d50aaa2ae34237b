import type { User } from '@flaglight/core';
import { toUser } from '../auth/repository.js';
import type { AuthService } from '../auth/service.js';
import { conflict, notFound } from '../http/errors.js';
import type { PaymentService } from '../payments/service.js';

/** SPEC §6 Admin: the account list, stats, upgrades and deletions (never of an admin). */
export function createAdminService(deps: {
  auth: AuthService;
  payments: PaymentService;
  adminEmails: string[];
}) {
  const { auth, payments, adminEmails } = deps;

  async function existing(id: string): Promise<{ id: string; user: User }> {
    const row = await auth.users.findById(id);
    if (!row) throw notFound('User not found');
    return { id: row.id, user: toUser(row, adminEmails) };
  }

  return {
    async users(): Promise<User[]> {
      return (await auth.users.list()).map((row) => toUser(row, adminEmails));
    },

    async stats() {
      const counts = await auth.users.countByPlan();
      const revenueTotal = (await payments.paidRevenueCents()) / 100;
      return {
        totalUsers: counts.trial + counts.lifetime + counts.pro,
        trialUsers: counts.trial,
        lifetimeUsers: counts.lifetime,
        proUsers: counts.pro,
        revenueTotal,
        totalRevenue: revenueTotal,
        currency: 'AUD',
      };
    },

    async upgrade(id: string, plan: 'lifetime'): Promise<User> {
      const { user } = await existing(id);
      if (user.isAdmin) throw conflict('Admins are not upgraded');
      if (user.plan !== 'trial') throw conflict('Only trial users can be upgraded');
      await auth.users.setPlan(String(user.id), plan);
      return { ...user, plan };
    },

    async delete(id: string): Promise<void> {
      const { user } = await existing(id);
      if (user.isAdmin) throw conflict('Admins cannot be deleted');
      await auth.users.delete(String(user.id));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
