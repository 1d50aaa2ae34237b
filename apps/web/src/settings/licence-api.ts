import type { LicenseStatus, User } from '@flaglight/core';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/client';

export type LicenceStatus = LicenseStatus;

export const LICENCE_STATUS_QUERY_KEY = ['license-status'] as const;

export function fetchLicenceStatus(): Promise<LicenceStatus> {
  return apiCall('GET /api/license/status');
}

export function useLicenceStatus(enabled = true) {
  return useQuery({ queryKey: LICENCE_STATUS_QUERY_KEY, queryFn: fetchLicenceStatus, enabled });
}

/** POST /api/license/verify; a non-2xx answer throws an ApiError with the server's error. */
export async function activateLicence(licenseKey: string): Promise<{ message: string; user: User | null }> {
  const { message, user } = await apiCall('POST /api/license/verify', { body: { licenseKey } });
  return { message, user };
}
