import { parseStoredUser, type User } from './user';

/** Browser storage keys of SPEC §3. */
export const STORAGE_KEYS = {
  token: 'auth_token',
  /** Older builds stored the session token here; it is moved to `auth_token` on start (DESIGN §6). */
  legacyToken: 'token',
  user: 'user',
  currentUserId: 'current_user_id',
  /** A LIFX token pasted before signing in; moved to the user's own key on login (SPEC §4 Session). */
  lifxTokenTemp: 'lifx_token_temp',
} as const;

/** The per-user LIFX token key (SPEC §3): `lifx_token_<email>`. */
export function lifxTokenKey(email: string): string {
  return `lifx_token_${email}`;
}

/** The LIFX token stored for this e-mail, or null. */
export function readLifxToken(email: string, storage: Storage | null = getStorage()): string | null {
  return storage?.getItem(lifxTokenKey(email)) || null;
}

/** SPEC §4 Session: a token saved under the temporary key before login moves to the user's own key. */
export function moveTemporaryLifxToken(email: string, storage: Storage | null = getStorage()): void {
  if (!storage) return;
  const temporary = storage.getItem(STORAGE_KEYS.lifxTokenTemp);
  if (temporary === null) return;
  if (temporary !== '') storage.setItem(lifxTokenKey(email), temporary);
  storage.removeItem(STORAGE_KEYS.lifxTokenTemp);
}

export interface StoredSession {
  token: string;
  user: User;
}

export type RestoreResult =
  { status: 'authenticated'; session: StoredSession } | { status: 'anonymous' } | { status: 'corrupt' };

function getStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage can be blocked (privacy settings); the app then runs signed out.
    return null;
  }
}

/** Moves a token stored under the old `token` key to `auth_token`, keeping a newer one if both exist. */
export function migrateLegacyToken(storage: Storage | null = getStorage()): void {
  if (!storage) return;
  const legacy = storage.getItem(STORAGE_KEYS.legacyToken);
  if (legacy === null) return;
  if (storage.getItem(STORAGE_KEYS.token) === null && legacy !== '') {
    storage.setItem(STORAGE_KEYS.token, legacy);
  }
  storage.removeItem(STORAGE_KEYS.legacyToken);
}

/** SPEC §4 Session start-up: authenticated only when both a token and a valid user are stored. */
export function readStoredSession(storage: Storage | null = getStorage()): RestoreResult {
  if (!storage) return { status: 'anonymous' };
  const token = storage.getItem(STORAGE_KEYS.token);
  const rawUser = storage.getItem(STORAGE_KEYS.user);
  if (!token || rawUser === null) return { status: 'anonymous' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawUser);
  } catch {
    return { status: 'corrupt' };
  }
  const user = parseStoredUser(parsed);
  return user ? { status: 'authenticated', session: { token, user } } : { status: 'corrupt' };
}

export function readStoredToken(storage: Storage | null = getStorage()): string | null {
  return storage?.getItem(STORAGE_KEYS.token) || null;
}

export function storeSession(session: StoredSession, storage: Storage | null = getStorage()): void {
  if (!storage) return;
  storage.setItem(STORAGE_KEYS.token, session.token);
  storage.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
  // SPEC §3: current_user_id holds the user's e-mail.
  storage.setItem(STORAGE_KEYS.currentUserId, session.user.email);
}

export function clearStoredSession(storage: Storage | null = getStorage()): void {
  if (!storage) return;
  storage.removeItem(STORAGE_KEYS.token);
  storage.removeItem(STORAGE_KEYS.legacyToken);
  storage.removeItem(STORAGE_KEYS.user);
  storage.removeItem(STORAGE_KEYS.currentUserId);
}
