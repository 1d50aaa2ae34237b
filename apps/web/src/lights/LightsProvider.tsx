import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useAppConfig } from '../api/app-config';
import { useAuth } from '../auth/auth-context';
import { takeHueAuthParams, type HueAuthResult } from './hue-oauth';
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
  // Bumped when the stored selection changes: it decides which provider is driven.
  const [settingsVersion, setSettingsVersion] = useState(0);
  const [engine, setEngine] = useState<LightsEngine | null>(null);
  const [hueAuthResult, setHueAuthResult] = useState<HueAuthResult | null>(takeRedirectResult);

  useEffect(() => {
    if (!email || !lifxApiUrl) return;
    let cancelled = false;
    let created: LightsEngine | null = null;
    let unsubscribe: (() => void) | null = null;
    void import('./user-lights').then(({ createUserLights }) => {
      if (cancelled) return;
      const lights = createUserLights(email, lifxApiUrl);
      created = lights.engine;
      unsubscribe = lights.subscribeSettings(() => setSettingsVersion((version) => version + 1));
      setEngine(created);
      void lights.start();
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
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
      // Depends on the snapshot and the stored selection (settingsVersion), both re-render this provider.
      drivenProvider: engine && snapshot && settingsVersion >= 0 ? engine.drivenProvider() : null,
      // Without the configuration (server unreachable) there is nothing to wait for.
      restoring: email !== null && !config.isError && (engine === null || snapshot.restoring),
      playFlag: (flag, options) => engine?.playFlag(flag, options) ?? false,
      cancelPending: () => engine?.cancelPending(),
    }),
    [engine, snapshot, settingsVersion, email, config.isError],
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
