import { lazy, Suspense } from 'react';
import { RouteLoading } from '../layout/RouteLoading';

// The text loads with the page, so the landing's bundle stays small (DESIGN §7).
const AboutContent = lazy(() => import('./AboutContent').then((m) => ({ default: m.AboutContent })));

export function AboutPage() {
  return (
    <Suspense fallback={<RouteLoading />}>
      <AboutContent />
    </Suspense>
  );
}
