import { pruneLightSelection } from '@flaglight/core';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useAppConfig } from '../api/app-config';
import { useAuth } from '../auth/auth-context';
import { readStoredToken } from '../auth/auth-storage';
import { readLocalSettings, updateLocalSettings, useLocalSettings } from '../settings/local-settings';
import { toast } from '../toasts/toast';
import { takeHueAuthParams, type HueAuthResult } from './hue-oauth';
import { clearLifxToken, readLifxTokenFor, storeLifxToken } from './lifx-token';
import { EMPTY_SNAPSHOT, LightControlContext, type LightControlApi } from './light-control-context';
import { LightsContext, type LightsApi } from './lights-context';
import type { LightsEngine } from './lights-engine';

const noSubscribe = () => () => undefined;
const emptySnapshot = () => EMPTY_SNAPSHOT;

/** SPEC §4: the OAuth callback may come back by redirect; the result is read once, then stripped. */
function takeRedirectResult(): HueAuthResult | null {
  if (typeof window === 'undefined') return null;
  const { result, cleaned } = takeHueAuthParams(window.location.href);
  if (cleaned !== window.location.href) window.history.replaceState(window.history.state, '', cleaned);
  if (result && !window.location.hash.startsWith('#/settings')) window.location.hash = '#/settings';
  return result;
}

/**
 * Supplies the lights (`LightsApi`) to the whole app, mounted once above the routes so a
 * connection survives moving between Dashboard and Settings. One engine per signed-in user; the
 * drivers load lazily, so the landing page does not carry them.
 */
export function LightsProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const email = user?.email ?? null;
  const config = useAppConfig();
  const lifxApiUrl = config.data?.lifxApiUrl;
  const [settings] = useLocalSettings(email);
  const [engine, setEngine] = useState<LightsEngine | null>(null);
  const [hueAuthResult, setHueAuthResult] = useState<HueAuthResult | null>(takeRedirectResult);

  useEffect(() => {
    if (!email || !lifxApiUrl) return;
    let cancelled = false;
    let created: LightsEngine | null = null;
    void import('./lights-engine').then(({ LightsEngine }) => {
      if (cancelled) return;
      created = new LightsEngine({
        lifxApiUrl,
        sessionToken: readStoredToken,
        notify: {
          success: (title) => toast.success(title),
          warning: (title) => toast.warning(title),
          error: (title, message) => toast.error(title, { message }),
        },
        tokenStore: {
          read: () => readLifxTokenFor(email),
          write: (token) => storeLifxToken(email, token),
          clear: () => clearLifxToken(email),
        },
        selection: () => {
          const stored = readLocalSettings(email);
          return { lifx: stored.selectedLifxDeviceIds, hue: stored.selectedHueDeviceIds };
        },
        // SPEC §5: the selection is pruned to ids that still exist.
        onDevicesLoaded: (provider, ids) =>
          updateLocalSettings(email, (current) =>
            provider === 'lifx'
              ? {
                  selectedLifxDeviceIds: pruneLightSelection(current.selectedLifxDeviceIds, ids),
                  hiddenLifxDeviceIds: pruneLightSelection(current.hiddenLifxDeviceIds, ids),
                }
              : {
                  selectedHueDeviceIds: pruneLightSelection(current.selectedHueDeviceIds, ids),
                  hiddenHueDeviceIds: pruneLightSelection(current.hiddenHueDeviceIds, ids),
                },
          ),
      });
      setEngine(created);
      void created.start(readLocalSettings(email).autoConnect);
    });
    return () => {
      cancelled = true;
      created?.dispose();
      setEngine(null);
    };
  }, [email, lifxApiUrl]);

  const snapshot = useSyncExternalStore(
    engine?.subscribe ?? noSubscribe,
    engine?.getSnapshot ?? emptySnapshot,
    emptySnapshot,
  );

  const lights = useMemo<LightsApi>(
    () => ({
      // Depends on the snapshot and the stored selection, both of which re-render this provider.
      drivenProvider: engine && snapshot && settings ? engine.drivenProvider() : null,
      // Without the configuration (server unreachable) there is nothing to wait for.
      restoring: email !== null && !config.isError && (engine === null || snapshot.restoring),
      playFlag: (flag, options) => engine?.playFlag(flag, options) ?? false,
      cancelPending: () => engine?.cancelPending(),
    }),
    [engine, snapshot, settings, email, config.isError],
  );

  const control = useMemo<LightControlApi>(
    () => ({ engine, snapshot, hueAuthResult, setHueAuthResult }),
    [engine, snapshot, hueAuthResult],
  );

  return (
    <LightsContext.Provider value={lights}>
      <LightControlContext.Provider value={control}>{children}</LightControlContext.Provider>
    </LightsContext.Provider>
  );
}
