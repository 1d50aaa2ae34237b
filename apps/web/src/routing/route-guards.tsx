import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { RouteLoading } from '../layout/RouteLoading';

// SPEC §2 access rules. Nothing is decided until the stored session has been read, so a
// signed-in reload of /#/dashboard never flashes the login screen.

/** Signed in only; otherwise /login. */
export function SignedInOnly({ children }: { children?: ReactNode }) {
  const { loading, isAuthenticated } = useAuth();
  if (loading) return <RouteLoading />;
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  return children ?? <Outlet />;
}

/** Signed out only; signed in goes to /dashboard. */
export function SignedOutOnly({ children }: { children?: ReactNode }) {
  const { loading, isAuthenticated } = useAuth();
  if (loading) return <RouteLoading />;
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  return children ?? <Outlet />;
}

/** Admins only: signed out goes to /login, everyone else to /dashboard. */
export function AdminOnly({ children }: { children?: ReactNode }) {
  const { loading, isAuthenticated, isAdmin } = useAuth();
  if (loading) return <RouteLoading />;
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return children ?? <Outlet />;
}
