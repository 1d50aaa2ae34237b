import type { LinkedDevice } from '@flaglight/contract';
import { useSyncExternalStore } from 'react';
import { setReportedBridgePorts } from './bridge';

/**
 * The account's companions as the server last listed them (`GET /api/devices`), per signed-in
 * e-mail: the lights engine reads it to leave out the lights a companion drives, and keeps the last
 * list while no screen asks the server (a screen without the list does not make a companion vanish).
 */
const lists = new Map<string, readonly LinkedDevice[]>();
const listeners = new Set<() => void>();

export function readCompanionDevices(email: string): readonly LinkedDevice[] | null {
  return lists.get(email) ?? null;
}

export function storeCompanionDevices(email: string, devices: readonly LinkedDevice[]): void {
  if (lists.get(email) === devices) return;
  lists.set(email, devices);
  // Test on this computer and the pairings ask the bridge at the port a companion says it uses.
  setReportedBridgePorts(devices.flatMap((d) => (d.online && d.state ? [d.state.bridgePort] : [])));
  listeners.forEach((listener) => listener());
}

export function subscribeCompanionDevices(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The signed-in user's companions as last listed (null before the first list). */
export function useCompanionDevices(email: string | null | undefined): readonly LinkedDevice[] | null {
  return useSyncExternalStore(
    subscribeCompanionDevices,
    () => (email ? readCompanionDevices(email) : null),
    () => null,
  );
}

/** Forgets every list (tests). */
export function clearCompanionDevices(): void {
  lists.clear();
  setReportedBridgePorts([]);
  listeners.forEach((listener) => listener());
}
