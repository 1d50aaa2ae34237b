import { lifxTokenKey, STORAGE_KEYS } from '../auth/auth-storage';

/**
 * Where the LIFX token lives in this browser (SPEC §3): `lifx_token_<email>` for a signed-in
 * user, `lifx_token_temp` before login (the AuthProvider moves it on login).
 */
function keyFor(email: string | null | undefined): string {
  return email ? lifxTokenKey(email) : STORAGE_KEYS.lifxTokenTemp;
}

export function readLifxTokenFor(email: string | null | undefined): string | null {
  try {
    return window.localStorage.getItem(keyFor(email)) || null;
  } catch {
    return null;
  }
}

export function storeLifxToken(email: string | null | undefined, token: string): void {
  try {
    window.localStorage.setItem(keyFor(email), token);
  } catch {
    // Blocked storage: the token lasts for this page only.
  }
}

export function clearLifxToken(email: string | null | undefined): void {
  try {
    window.localStorage.removeItem(keyFor(email));
  } catch {
    // nothing stored
  }
}
