import { lazy, Suspense, useState } from 'react';
import { RouterProvider } from 'react-router';
import { useAuth } from './auth/auth-context';
import { AuthProvider } from './auth/AuthProvider';
import { LightsProvider } from './lights/LightsProvider';
import { createAppRouter } from './routing/routes';

// Toasts come only from the signed-in screens and the lights engine, so only a signed-in user
// loads the toaster; the landing page does not.
const Toaster = lazy(() => import('./toasts/Toaster').then((m) => ({ default: m.Toaster })));

function SignedInToaster() {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AuthProvider>
      {/* Above the routes, so light connections survive moving between screens. */}
      <LightsProvider>
        <RouterProvider router={router} />
      </LightsProvider>
      <SignedInToaster />
    </AuthProvider>
  );
}
