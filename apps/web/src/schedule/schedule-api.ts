import { REQUEST_MAX_RETRIES, REQUEST_TIMEOUT_MS, type Race } from '@flaglight/core';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/client';

export interface ScheduleAnswer {
  season: string;
  races: Race[];
  /** The server serves its bundled calendar ('Using fallback data'). */
  fallback: boolean;
  message: string | null;
}

export const SCHEDULE_QUERY_KEY = ['f1', 'schedule'] as const;

/** A schedule request that took longer than SPEC §7's 10 s. */
export class ScheduleTimeoutError extends Error {
  override readonly name = 'ScheduleTimeoutError';
}

/** `GET /api/f1/schedule`, given up after 10 s (SPEC §7). */
export async function fetchSchedule(signal?: AbortSignal): Promise<ScheduleAnswer> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  try {
    const { season, races, fallback, message } = await apiCall('GET /api/f1/schedule', undefined, {
      signal: controller.signal,
    });
    return { season, races, fallback, message: message ?? null };
  } catch (error) {
    if (timedOut) throw new ScheduleTimeoutError('The race schedule took too long to load.');
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** SPEC §7: schedule requests retry up to 3 times, on time-outs only. */
export function shouldRetrySchedule(failureCount: number, error: unknown): boolean {
  return error instanceof ScheduleTimeoutError && failureCount < REQUEST_MAX_RETRIES;
}

/** The season schedule, shared by the calendar and Race Control's countdown. */
export function useSchedule() {
  return useQuery({
    queryKey: SCHEDULE_QUERY_KEY,
    queryFn: ({ signal }) => fetchSchedule(signal),
    retry: shouldRetrySchedule,
    staleTime: 10 * 60_000,
  });
}
