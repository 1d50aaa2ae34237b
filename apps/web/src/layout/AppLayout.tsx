import { lazy, Suspense, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { ErrorBoundary } from '../errors/ErrorBoundary';
import { isTopBarShown } from './nav-items';
import { RouteLoading } from './RouteLoading';
import { SiteFooter } from './SiteFooter';
import { TopBar } from './TopBar';

// The live connection outlives screen changes (a fan may open Settings mid-race), so it sits
// here, above the per-path key; signed-in only, and lazily loaded with the screens' query client.
const SignedInProviders = lazy(() =>
  import('./SignedInProviders').then((m) => ({ default: m.SignedInProviders })),
);

export function AppLayout() {
  const { isAuthenticated } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const mainRef = useRef<HTMLElement>(null);
  const view = (
    // Re-keyed per path so each screen plays the 200 ms fade (SPEC §2).
    <div
      key={location.pathname}
      data-testid="route-view"
      className="flex flex-1 flex-col motion-safe:animate-route-fade"
    >
      <Outlet />
    </div>
  );

  return (
    <div className="flex min-h-dvh flex-col">
      {/* A button, not an anchor: a #fragment would be read as a route by the hash router. */}
      <button
        type="button"
        onClick={() => mainRef.current?.focus()}
        className="sr-only z-50 rounded-control bg-accent px-4 py-2 font-semibold text-on-accent focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </button>
      {isTopBarShown(location.pathname, isAuthenticated) && <TopBar />}
      <main ref={mainRef} tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <ErrorBoundary resetKey={location.key} onGoHome={() => void navigate('/')}>
          <Suspense fallback={<RouteLoading />}>
            {isAuthenticated ? <SignedInProviders>{view}</SignedInProviders> : view}
          </Suspense>
        </ErrorBoundary>
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
