import { useQueryClient } from '@tanstack/react-query';
import { useRef, type ReactNode } from 'react';
import { useAuth } from '../auth/auth-context';
import { useCompanionDevicesFeed } from '../companion/use-companions';
import { useLocalSettings } from '../settings/local-settings';
import { receivePushedPreferences } from '../settings/preferences-sync';
import { keepNewerPreferences } from '../settings/room-delay-api';
import { usePreferencesSync } from '../settings/use-preferences-sync';
import { useFlagTitle } from '../ui/use-flag-title';
import { useWakeLock } from '../ui/use-wake-lock';
import { LiveConnectionContext, type LiveConnectionApi } from './live-connection-context';
import type { LiveFeedDeps } from './live-feed';
import { useLiveConnection } from './use-live-connection';

/**
 * Holds the live connection for every signed-in screen, so a fan who opens Settings or Help in the
 * middle of a race keeps following it: the lights, the tracked session, the page title (it shows
 * the flag) and the wake lock all stay. Signing out (or leaving the signed-in screens) ends it like
 * a disconnect. Mounted by AppLayout (through SignedInProviders) around the screen, outside its
 * per-path fade key, and loaded lazily so the landing page does not carry the live code.
 */
export function LiveProvider({ children, feedDeps }: { children: ReactNode; feedDeps?: LiveFeedDeps }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [settings] = useLocalSettings(user?.email);
  // The account's preferences: read after sign-in, written on change, pushed on the stream.
  usePreferencesSync(user?.email);
  // The account's companions, for the lights engine (it leaves out the lights a companion drives).
  const companions = useCompanionDevicesFeed(user?.email);
  const live = useLiveConnection({
    delaySeconds: settings.delaySeconds,
    delayEnabled: settings.delayEnabled,
    onPreferences: (data) => {
      receivePushedPreferences(user?.email, data);
      // Settings → Devices reads the document too (a room's delay, its calibration's base).
      keepNewerPreferences(queryClient, data);
    },
    onDevices: companions.refresh,
    ...(feedDeps ? { feedDeps } : {}),
  });
  const connected = live.state.status === 'connected';
  useFlagTitle(connected ? (live.state.momentary?.flag ?? live.state.shown.flag) : null);
  const wakeLockHeld = useWakeLock(connected);
  const autoConnectTried = useRef<string | null>(null);
  const api: LiveConnectionApi = { ...live, wakeLockHeld, autoConnectTried };
  return <LiveConnectionContext.Provider value={api}>{children}</LiveConnectionContext.Provider>;
}
