import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { fetchMe, logoutRequest } from './auth-api';
import { AuthContext, type AuthContextValue } from './auth-context';
import {
  clearStoredSession,
  migrateLegacyToken,
  moveTemporaryLifxToken,
  readLifxToken,
  readStoredSession,
  STORAGE_KEYS,
  storeSession,
  type StoredSession,
} from './auth-storage';
import { AUTH_TEXTS } from './auth-texts';
import type { User } from './user';

type State =
  { status: 'loading' } | { status: 'anonymous' } | { status: 'authenticated'; session: StoredSession };

function restore(): State {
  migrateLegacyToken();
  const result = readStoredSession();
  if (result.status === 'corrupt') {
    // SPEC §4: corrupt stored data logs out silently.
    clearStoredSession();
    return { status: 'anonymous' };
  }
  return result;
}

const WATCHED_KEYS = new Set<string | null>([STORAGE_KEYS.token, STORAGE_KEYS.user, null]);

function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'unauthenticated';
}

/** How often a page on a trial asks whether the plan changed (an upgrade elsewhere, an admin grant). */
export const TRIAL_PLAN_CHECK_MS = 60_000;
/** A page coming back into view asks at most this often (a fan back from the checkout tab). */
export const FOCUS_PLAN_CHECK_MS = 15_000;

/**
 * Keeps the signed-in user current while the page is open: a trial account is asked about every
 * TRIAL_PLAN_CHECK_MS, and any account when the page comes back into view, so an upgrade made in
 * another tab, on another device or by an admin shows without a reload.
 */
function usePlanFreshness(state: State, check: () => void): void {
  const plan = state.status === 'authenticated' ? state.session.user.plan : null;
  const signedIn = state.status === 'authenticated';
  const checkRef = useRef(check);
  checkRef.current = check;
  useEffect(() => {
    if (!signedIn) return;
    let lastCheck = Date.now();
    const run = () => {
      lastCheck = Date.now();
      checkRef.current();
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible' && Date.now() - lastCheck >= FOCUS_PLAN_CHECK_MS) run();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    const timer = plan === 'trial' ? setInterval(run, TRIAL_PLAN_CHECK_MS) : null;
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
      if (timer) clearInterval(timer);
    };
  }, [signedIn, plan]);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const stateRef = useRef(state);
  stateRef.current = state;

  const forget = useCallback(() => {
    clearStoredSession();
    setState({ status: 'anonymous' });
  }, []);

  /** Stores a fresher copy of the signed-in user, if the session is still the same one. */
  const updateUser = useCallback((user: User) => {
    const current = stateRef.current;
    if (current.status !== 'authenticated') return;
    const session = { token: current.session.token, user };
    storeSession(session);
    setState({ status: 'authenticated', session });
  }, []);

  useEffect(() => {
    const restored = restore();
    setState(restored);
    // SPEC §4 Session: the stored token is checked with the server in the background; a
    // revoked or expired one signs out silently, anything else (offline) keeps the session.
    const controller = new AbortController();
    if (restored.status === 'authenticated') {
      const { token } = restored.session;
      fetchMe(token, controller.signal).then(
        (user) => {
          if (stateRef.current.status === 'authenticated' && stateRef.current.session.token === token) {
            updateUser(user);
          }
        },
        (error: unknown) => {
          const current = stateRef.current;
          if (
            isUnauthorized(error) &&
            current.status === 'authenticated' &&
            current.session.token === token
          ) {
            forget();
          }
        },
      );
    }
    // Another tab signing in or out changes this one too.
    function onStorage(event: StorageEvent) {
      if (WATCHED_KEYS.has(event.key)) setState(restore());
    }
    window.addEventListener('storage', onStorage);
    return () => {
      controller.abort();
      window.removeEventListener('storage', onStorage);
    };
  }, [forget, updateUser]);

  const login = useCallback((token: string, user: User) => {
    const session = { token, user };
    storeSession(session);
    moveTemporaryLifxToken(user.email);
    setState({ status: 'authenticated', session });
  }, []);

  const logout = useCallback(() => {
    const current = stateRef.current;
    if (current.status === 'authenticated') {
      // Revoke on the server too; the local sign-out does not wait for it.
      logoutRequest(current.session.token).catch((error: unknown) => {
        console.warn('Server logout failed', error);
      });
    }
    forget();
  }, [forget]);

  const refreshUser = useCallback(async (): Promise<User> => {
    const current = stateRef.current;
    const token = current.status === 'authenticated' ? current.session.token : null;
    if (!token) throw new Error(AUTH_TEXTS.noToken);
    try {
      const user = await fetchMe(token);
      updateUser(user);
      return user;
    } catch (error) {
      if (isUnauthorized(error)) forget();
      throw new Error(AUTH_TEXTS.refreshFailed, { cause: error });
    }
  }, [forget, updateUser]);

  usePlanFreshness(state, () => {
    refreshUser().catch(() => {
      // Offline or the server busy: the next check asks again; a revoked session signs out there.
    });
  });

  const value = useMemo<AuthContextValue>(() => {
    const session = state.status === 'authenticated' ? state.session : null;
    return {
      status: state.status,
      loading: state.status === 'loading',
      isAuthenticated: session !== null,
      isAdmin: session?.user.isAdmin === true,
      user: session?.user ?? null,
      token: session?.token ?? null,
      lifxToken: session ? readLifxToken(session.user.email) : null,
      login,
      logout,
      refreshUser,
      updateUser,
    };
  }, [state, login, logout, refreshUser, updateUser]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
