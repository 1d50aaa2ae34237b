import { lazy, Suspense } from 'react';
import { RouteLoading } from '../layout/RouteLoading';

// The text loads with the page, so the landing's bundle stays small (DESIGN §7).
const PrivacyContent = lazy(() => import('./PrivacyContent').then((m) => ({ default: m.PrivacyContent })));

export function PrivacyPage() {
  return (
    <Suspense fallback={<RouteLoading />}>
      <PrivacyContent />
    </Suspense>
  );
}
