import { startTransition, useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from './auth-context';

/**
 * Signs out and goes to `to` (SPEC §2 Settings: "logs out and goes to /"). The logout runs in
 * one transition with the router's own update; done apart, the signed-in guard would render
 * first, see no user and send them to /login instead.
 */
export function useSignOut(to = '/'): () => void {
  const { logout } = useAuth();
  const navigate = useNavigate();
  return useCallback(() => {
    startTransition(() => {
      logout();
      void navigate(to);
    });
  }, [logout, navigate, to]);
}
