import type { PublicConfig } from '@flaglight/contract';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from './client';

/** The public configuration the server hands the browser (GET /api/config). */
export type AppConfig = PublicConfig;
export type TurnstileConfig = PublicConfig['turnstile'];

export const APP_CONFIG_QUERY_KEY = ['app-config'] as const;

export function fetchAppConfig(): Promise<AppConfig> {
  return apiCall('GET /api/config', undefined, { token: null });
}

/** The configuration, fetched once per page load. */
export function useAppConfig() {
  return useQuery({ queryKey: APP_CONFIG_QUERY_KEY, queryFn: fetchAppConfig, staleTime: Infinity });
}
