import { DEFAULT_LOOK_SET } from '@flaglight/core';
import { useCallback } from 'react';
import { useAuth } from '../../auth/auth-context';
import { useLocalSettings } from '../local-settings';

/**
 * The fan's "No flashing" (`looks.noFlashing`), for the places outside Flags & effects that offer
 * it: where lights are first connected and the on-screen light's panel. Switching it keeps every
 * other look as it is (Trackside when the fan never chose).
 */
export function useNoFlashing(): [boolean, (on: boolean) => void] {
  const { user } = useAuth();
  const [settings, update] = useLocalSettings(user?.email);
  const set = useCallback(
    (on: boolean) =>
      update((current) => ({ looks: { ...(current.looks ?? DEFAULT_LOOK_SET), noFlashing: on } })),
    [update],
  );
  return [(settings.looks ?? DEFAULT_LOOK_SET).noFlashing, set];
}
