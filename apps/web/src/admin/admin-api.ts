import { apiRequest } from '../api/client';
import { parseUser, type User } from '../auth/user';

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
  const body = await apiRequest<{ users?: unknown }>('/admin/users');
  const list = Array.isArray(body?.users) ? body.users : [];
  return list.map(parseUser).filter((user): user is User => user !== null);
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export async function fetchAdminStats(): Promise<AdminStats> {
  const body = await apiRequest<Record<string, unknown>>('/admin/stats');
  return {
    totalUsers: count(body?.totalUsers),
    trialUsers: count(body?.trialUsers),
    lifetimeUsers: count(body?.lifetimeUsers),
    revenue: count(body?.revenueTotal ?? body?.totalRevenue),
    currency: typeof body?.currency === 'string' ? body.currency : 'AUD',
  };
}

export async function upgradeUserToLifetime(id: User['id']): Promise<void> {
  await apiRequest(`/admin/users/${encodeURIComponent(String(id))}/plan`, {
    method: 'PUT',
    body: { plan: 'lifetime' },
  });
}

export async function deleteUser(id: User['id']): Promise<void> {
  await apiRequest(`/admin/users/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
}
