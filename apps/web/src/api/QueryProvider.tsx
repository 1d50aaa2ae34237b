import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, useState, type ReactNode } from 'react';

/**
 * TanStack Query for the signed-in screens (their data: licence, schedule, replays, admin), loaded
 * with them rather than with the landing page. One client per signed-in stay, so the next user
 * starts with an empty cache; a client provided above (a test's, without retries) is kept.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  const [client] = useState(() => outer ?? new QueryClient({ defaultOptions: { queries: { retry: 1 } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
