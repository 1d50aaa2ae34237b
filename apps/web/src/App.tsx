import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { RouterProvider } from 'react-router';
import { AuthProvider } from './auth/AuthProvider';
import { LightsProvider } from './lights/LightsProvider';
import { createAppRouter } from './routing/routes';

// Loaded after first paint: toasts come from the signed-in screens, which load later anyway.
const Toaster = lazy(() => import('./toasts/Toaster').then((m) => ({ default: m.Toaster })));

export function App() {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1 } } }));
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        {/* Above the routes, so light connections survive moving between screens. */}
        <LightsProvider>
          <RouterProvider router={router} />
        </LightsProvider>
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </AuthProvider>
    </QueryClientProvider>
  );
}
