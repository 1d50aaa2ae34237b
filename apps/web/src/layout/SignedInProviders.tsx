import type { ReactNode } from 'react';
import { QueryProvider } from '../api/QueryProvider';
import { LiveProvider } from '../live/LiveProvider';

/** What every signed-in screen stands on: its data queries and the live connection. Lazily loaded. */
export function SignedInProviders({ children }: { children: ReactNode }) {
  return (
    <QueryProvider>
      <LiveProvider>{children}</LiveProvider>
    </QueryProvider>
  );
}
