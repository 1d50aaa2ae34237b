import { useSyncExternalStore } from 'react';
import { ApiError } from '../api/client';

// What the fan changed that the account has not taken yet, per signed-in user: the preferences sync
// writes it, the places where each change is made (Light Control, Broadcast Delay, App Preferences,
// Flags & effects) show it beside the change with a Retry.

/** Where a synced preference is changed on screen. */
export type PreferencesArea = 'lights' | 'delay' | 'autoConnect' | 'looks' | 'lightFollow';

export interface UnsavedPreferences {
  /** The places holding a change the server has not taken. */
  areas: readonly PreferencesArea[];
  /** Why, in plain words. */
  reason: string;
  /** True while a new try is on its way. */
  retrying: boolean;
}

export const SAVE_TEXTS = {
  title: {
    lights: 'Your light choice is not saved yet',
    delay: 'Your broadcast delay is not saved yet',
    autoConnect: 'Your auto-connect choice is not saved yet',
    looks: 'Your flag looks are not saved yet',
    lightFollow: 'Your choice of when the lights follow is not saved yet',
  } satisfies Record<PreferencesArea, string>,
  kept: 'It stays on this device and is saved as soon as the server takes it.',
  retry: 'Retry',
  retrying: 'Saving…',
  offline: 'Flaglight cannot reach its server (no network, or the server is down).',
  busy: 'Too many changes in a short time; Flaglight tries again in a moment.',
  serverFault: "Flaglight's server had a problem.",
  signedOut: 'You are signed out on this device. Sign in again to save it.',
  tooLarge: 'It is larger than the server takes.',
  conflict: 'Another device kept changing your settings at the same moment; Flaglight tries again.',
  refused: (why: string) => `The server refused it: ${why}`,
  status: (status: number) => `The server answered ${status}.`,
} as const;

/** Whether another try may succeed without the fan changing anything (network, overload, a fault). */
export function isTransientSaveError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return [0, 408, 409, 429].includes(error.status) || error.status >= 500;
}

/** A failed write, in plain words. */
export function describeSaveError(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === 0) return SAVE_TEXTS.offline;
  if (error.status === 429) return SAVE_TEXTS.busy;
  if (error.status >= 500) return SAVE_TEXTS.serverFault;
  if (error.status === 401) return SAVE_TEXTS.signedOut;
  if (error.status === 413) return SAVE_TEXTS.tooLarge;
  if (error.status === 409) return SAVE_TEXTS.conflict;
  const text = (error.body as { error?: unknown } | null | undefined)?.error;
  if (error.status === 400 && typeof text === 'string' && text.trim() !== '') return SAVE_TEXTS.refused(text);
  return SAVE_TEXTS.status(error.status);
}

const states = new Map<string, UnsavedPreferences>();
const listeners = new Set<() => void>();

/** Sets (or with null clears) what `email` has unsaved. */
export function setUnsavedPreferences(email: string, state: UnsavedPreferences | null): void {
  const before = states.get(email);
  if (state === null || state.areas.length === 0) {
    if (!before) return;
    states.delete(email);
  } else {
    if (
      before &&
      before.reason === state.reason &&
      before.retrying === state.retrying &&
      before.areas.join() === state.areas.join()
    )
      return;
    states.set(email, state);
  }
  for (const listener of listeners) listener();
}

/** Forgets what every account had unsaved (each component test starts from a page that saved all). */
export function forgetUnsavedPreferences(): void {
  if (states.size === 0) return;
  states.clear();
  for (const listener of listeners) listener();
}

export function readUnsavedPreferences(email: string | null | undefined): UnsavedPreferences | null {
  return email ? (states.get(email) ?? null) : null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the signed-in user has unsaved, kept current. */
export function useUnsavedPreferences(email: string | null | undefined): UnsavedPreferences | null {
  return useSyncExternalStore(
    subscribe,
    () => readUnsavedPreferences(email),
    () => null,
  );
}
