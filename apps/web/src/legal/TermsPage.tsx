import { lazy, Suspense } from 'react';
import { RouteLoading } from '../layout/RouteLoading';

// The text loads with the page, so the landing's bundle stays small (DESIGN §7).
const TermsContent = lazy(() => import('./TermsContent').then((m) => ({ default: m.TermsContent })));

export function TermsPage() {
  return (
    <Suspense fallback={<RouteLoading />}>
      <TermsContent />
    </Suspense>
  );
}
