import type { LinkedDevice } from '@flaglight/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DEVICES_QUERY_KEY, fetchDevices } from '../devices/device-api';
import { storeCompanionDevices } from './companion-store';

/** The dashboard reads the account's companions this often (and at once on the stream's `devices`). */
export const COMPANIONS_REFRESH_MS = 30_000;

/** The account's companions, read while the calling screen is open. */
export function useCompanionList() {
  return useQuery({
    queryKey: DEVICES_QUERY_KEY,
    queryFn: fetchDevices,
    refetchInterval: COMPANIONS_REFRESH_MS,
  });
}

/**
 * Hands every device list the signed-in screens fetch (dashboard, Settings) to the companion store,
 * which the lights engine reads; `refresh` reads it again (the stream's `devices` event).
 */
export function useCompanionDevicesFeed(email: string | null | undefined): { refresh: () => void } {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!email) return;
    const feed = () => {
      const data = queryClient.getQueryData<LinkedDevice[]>(DEVICES_QUERY_KEY);
      // A list dropped from the cache (no screen needs it) keeps the last one known.
      if (data) storeCompanionDevices(email, data);
    };
    feed();
    return queryClient.getQueryCache().subscribe((event) => {
      const [key] = event.query.queryKey as readonly unknown[];
      if (key === DEVICES_QUERY_KEY[0]) feed();
    });
  }, [email, queryClient]);
  return {
    refresh: () => void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY }),
  };
}
