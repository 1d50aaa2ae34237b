import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api/client';
import { parseUser, type User } from '../auth/user';

export interface LicenceStatus {
  hasActiveLicense: boolean;
  licenseDetails: { activatedAt?: string | null; currency?: string | null; amount?: number | null } | null;
}

export const LICENCE_STATUS_QUERY_KEY = ['license-status'] as const;

export function fetchLicenceStatus(): Promise<LicenceStatus> {
  return apiRequest<LicenceStatus>('/api/license/status');
}

export function useLicenceStatus(enabled = true) {
  return useQuery({ queryKey: LICENCE_STATUS_QUERY_KEY, queryFn: fetchLicenceStatus, enabled });
}

/** POST /api/license/verify; a non-2xx answer throws an ApiError with the server's error. */
export async function activateLicence(licenseKey: string): Promise<{ message: string; user: User | null }> {
  const body = await apiRequest<{ message?: unknown; user?: unknown }>('/api/license/verify', {
    body: { licenseKey },
  });
  return {
    message: typeof body?.message === 'string' ? body.message : 'License activated.',
    user: parseUser(body?.user),
  };
}
