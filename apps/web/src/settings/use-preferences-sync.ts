import { useEffect } from 'react';
import { startPreferencesSync } from './preferences-sync';

/** Keeps the signed-in user's settings in step with the account while signed-in screens are open. */
export function usePreferencesSync(email: string | null | undefined): void {
  useEffect(() => {
    if (!email) return;
    const sync = startPreferencesSync(email);
    return () => sync.stop();
  }, [email]);
}
