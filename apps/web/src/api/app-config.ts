import type { PublicConfig } from '@flaglight/contract';
import { useEffect, useSyncExternalStore } from 'react';
import { apiCall } from './client';

/** The public configuration the server hands the browser (GET /api/config). */
export type AppConfig = PublicConfig;
export type TurnstileConfig = PublicConfig['turnstile'];

export function fetchAppConfig(): Promise<AppConfig> {
  return apiCall('GET /api/config', undefined, { token: null });
}

// A tiny store rather than TanStack Query: the lights and the bot check need the configuration on
// signed-out screens, and the landing page should not carry a query library for one request.
type Snapshot =
  { status: 'idle' | 'pending' | 'error'; data: undefined } | { status: 'success'; data: AppConfig };

const IDLE: Snapshot = { status: 'idle', data: undefined };
let snapshot: Snapshot = IDLE;
let request: Promise<AppConfig> | null = null;
let generation = 0;
const listeners = new Set<() => void>();

function set(next: Snapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

/** Fetches the configuration once per page load; a failure is forgotten, so the next caller asks again. */
export function loadAppConfig(): Promise<AppConfig> {
  if (request) return request;
  const mine = generation;
  set({ status: 'pending', data: undefined });
  request = fetchAppConfig().then(
    (data) => {
      if (mine === generation) set({ status: 'success', data });
      return data;
    },
    (error: unknown) => {
      if (mine === generation) {
        request = null;
        set({ status: 'error', data: undefined });
      }
      throw error;
    },
  );
  return request;
}

/** Forgets the configuration (each component test starts from a page that never asked). */
export function resetAppConfig(): void {
  generation += 1;
  request = null;
  set(IDLE);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => snapshot;

export type AppConfigResult =
  | { data: undefined; isPending: true; isError: false }
  | { data: undefined; isPending: false; isError: true }
  | { data: AppConfig; isPending: false; isError: false };

/** The configuration, fetched once per page load; nothing is asked while `enabled` is false. */
export function useAppConfig(enabled = true): AppConfigResult {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  useEffect(() => {
    if (enabled) loadAppConfig().catch(() => {});
  }, [enabled]);
  if (current.status === 'success') return { data: current.data, isPending: false, isError: false };
  if (current.status === 'error') return { data: undefined, isPending: false, isError: true };
  return { data: undefined, isPending: true, isError: false };
}
