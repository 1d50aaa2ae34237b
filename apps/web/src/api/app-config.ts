import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './client';

/** The public configuration the server hands the browser (GET /api/config). */
export type TurnstileConfig =
  { kind: 'demo'; siteKey: string; tokenUrl: string } | { kind: 'cloudflare'; siteKey: string };

export interface AppConfig {
  mode: 'demo' | 'live';
  turnstile: TurnstileConfig;
  lifxApiUrl: string;
  supportEmail: string;
}

export const APP_CONFIG_QUERY_KEY = ['app-config'] as const;

export function fetchAppConfig(): Promise<AppConfig> {
  return apiRequest<AppConfig>('/api/config', { token: null });
}

/** The configuration, fetched once per page load. */
export function useAppConfig() {
  return useQuery({ queryKey: APP_CONFIG_QUERY_KEY, queryFn: fetchAppConfig, staleTime: Infinity });
}
