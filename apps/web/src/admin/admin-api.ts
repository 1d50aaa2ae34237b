import type { User } from '@flaglight/core';
import { apiCall } from '../api/client';

export interface AdminStats {
  totalUsers: number;
  trialUsers: number;
  lifetimeUsers: number;
  /** SPEC §3: read as revenueTotal, with totalRevenue as the other reading. */
  revenue: number;
  currency: string;
}

export const ADMIN_USERS_KEY = ['admin', 'users'] as const;
export const ADMIN_STATS_KEY = ['admin', 'stats'] as const;

export async function fetchAdminUsers(): Promise<User[]> {
  const { users } = await apiCall('GET /admin/users');
  return users;
}

export async function fetchAdminStats(): Promise<AdminStats> {
  const stats = await apiCall('GET /admin/stats');
  return {
    totalUsers: stats.totalUsers,
    trialUsers: stats.trialUsers,
    lifetimeUsers: stats.lifetimeUsers,
    revenue: stats.revenueTotal,
    currency: stats.currency,
  };
}

export async function upgradeUserToLifetime(id: User['id']): Promise<void> {
  await apiCall('PUT /admin/users/:id/plan', { params: { id: String(id) }, body: { plan: 'lifetime' } });
}

export async function deleteUser(id: User['id']): Promise<void> {
  await apiCall('DELETE /admin/users/:id', { params: { id: String(id) } });
}
