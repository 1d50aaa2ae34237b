import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useAppConfig } from '../api/app-config';
import { useAuth } from '../auth/auth-context';
import { takeHueAuthParams, type HueAuthResult } from './hue-oauth';
import { LightControlContext, type LightControlApi } from './light-control-context';
import { LightsContext, type LightsApi } from './lights-context';
import type { LightsEngine } from './lights-engine';

const noSubscribe = () => () => undefined;
const noProvider = () => null;
const notRestoring = () => false;

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
 * drivers load lazily, so the landing page does not carry them. It re-renders only when the
 * driven provider or the restoring flag changes; each provider's state has its own store.
 */
export function LightsProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const email = user?.email ?? null;
  // Only a signed-in user has lights to drive; the landing asks the server nothing.
  const config = useAppConfig(email !== null);
  const lifxApiUrl = config.data?.lifxApiUrl;
  const [engine, setEngine] = useState<LightsEngine | null>(null);
  const [hueAuthResult, setHueAuthResult] = useState<HueAuthResult | null>(takeRedirectResult);

  useEffect(() => {
    if (!email || !lifxApiUrl) return;
    let cancelled = false;
    let created: LightsEngine | null = null;
    void import('./user-lights').then(({ createUserLights }) => {
      if (cancelled) return;
      const lights = createUserLights(email, lifxApiUrl);
      created = lights.engine;
      setEngine(created);
      void lights.start();
    });
    return () => {
      cancelled = true;
      created?.dispose();
      setEngine(null);
    };
  }, [email, lifxApiUrl]);

  const drivenProvider = useSyncExternalStore(
    engine?.subscribeProviders ?? noSubscribe,
    engine?.drivenProvider ?? noProvider,
    noProvider,
  );
  const engineRestoring = useSyncExternalStore(
    engine?.session.subscribe ?? noSubscribe,
    engine ? () => engine.session.getSnapshot().restoring : notRestoring,
    notRestoring,
  );

  const lights = useMemo<LightsApi>(
    () => ({
      drivenProvider,
      // Without the configuration (server unreachable) there is nothing to wait for.
      restoring: email !== null && !config.isError && (engine === null || engineRestoring),
      playFlag: (flag, options) => engine?.playFlag(flag, options) ?? false,
      playTest: (flag) => engine?.playTest(flag) ?? false,
      cancelPending: () => engine?.cancelPending(),
      followSession: (session, key) => engine?.followSession(session, key ?? null),
    }),
    [engine, drivenProvider, engineRestoring, email, config.isError],
  );

  const control = useMemo<LightControlApi>(
    () => ({ engine, hueAuthResult, setHueAuthResult }),
    [engine, hueAuthResult],
  );

  return (
    <LightsContext.Provider value={lights}>
      <LightControlContext.Provider value={control}>{children}</LightControlContext.Provider>
    </LightsContext.Provider>
  );
}
