import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  createHueAppKey,
  describeDiagnostics,
  fetchHueDiagnostics,
  isHueReconnectError,
  pulseHueLight,
  storeHueAppKey,
} from '../lights/hue-api';
import type { HueAuthResult } from '../lights/hue-oauth';
import { useLightControl, useProviderState } from '../lights/light-control-context';
import type { LightsEngine } from '../lights/lights-engine';
import { LIGHTS_TEXTS as T } from '../lights/lights-texts';
import { isProviderConnected } from '../lights/provider-store';
import { useHueOAuth } from '../lights/use-hue-oauth';
import { toast } from '../toasts/toast';

type KeyStep =
  | { step: 'idle' }
  | { step: 'creating' }
  | { step: 'created'; key: string }
  | { step: 'storing'; key: string }
  | { step: 'stored' };

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message !== '' ? error.message : fallback;
}

/** The bridge's application key: created by the server and shown once, or pasted and stored. */
function useHueAppKey(engine: LightsEngine | null) {
  const [keyStep, setKeyStep] = useState<KeyStep>({ step: 'idle' });
  const [pastedKey, setPastedKey] = useState('');
  const [keyError, setKeyError] = useState<string | null>(null);

  const createKey = useCallback(async () => {
    setKeyStep({ step: 'creating' });
    setKeyError(null);
    try {
      const key = await createHueAppKey();
      setKeyStep({ step: 'created', key });
      // The server keeps the new key at once; the lights can load while the user copies it.
      await engine?.loadHueLights();
    } catch {
      setKeyStep({ step: 'idle' });
      setKeyError(T.hueCreateKeyFailed);
    }
  }, [engine]);

  async function storeKey(event: FormEvent) {
    event.preventDefault();
    const key = pastedKey.trim();
    if (key === '') {
      setKeyError(T.hueKeyRequired);
      return;
    }
    setKeyError(null);
    setKeyStep({ step: 'storing', key });
    try {
      await storeHueAppKey(key);
      setKeyStep({ step: 'stored' });
      setPastedKey('');
      toast.success('Application key stored');
      await engine?.loadHueLights();
    } catch {
      setKeyStep(keyStep.step === 'created' ? keyStep : { step: 'idle' });
      setKeyError(T.hueStoreKeyFailed);
    }
  }

  const resetKey = () => setKeyStep({ step: 'idle' });

  return { keyStep, pastedKey, setPastedKey, keyError, createKey, storeKey, resetKey };
}

export type HueAppKey = ReturnType<typeof useHueAppKey>;

/**
 * The OAuth popup and a result that came back by redirect: a granted access is checked and
 * followed by a new application key.
 */
function useHueAuthorisation(
  engine: LightsEngine | null,
  createKey: () => Promise<void>,
  setError: (message: string | null) => void,
) {
  const { hueAuthResult, setHueAuthResult } = useLightControl();

  const onResult = useCallback(
    async (result: HueAuthResult) => {
      if (!result.ok) {
        setError(T.hueAuthFailed(result.reason));
        return;
      }
      setError(null);
      if (!engine) return;
      await engine.checkHue({ loadLights: false });
      if (isProviderConnected(engine.providers.hue.getSnapshot())) {
        toast.success(T.hueConnected);
        await createKey();
      }
    },
    [engine, createKey, setError],
  );

  // A popup closed by hand may still have finished the authorisation: then the key is created.
  const onClosed = async () => {
    if (!engine) return;
    await engine.checkHue();
    const state = engine.providers.hue.getSnapshot();
    if (isProviderConnected(state) && !state.hasApplicationKey) await createKey();
  };

  const oauth = useHueOAuth({
    onResult: (result) => void onResult(result),
    onClosed: () => void onClosed(),
    onError: setError,
  });

  // A result that came back by redirect (URL parameters), read by the LightsProvider.
  useEffect(() => {
    if (!hueAuthResult || !engine) return;
    setHueAuthResult(null);
    void onResult(hueAuthResult);
  }, [hueAuthResult, engine, setHueAuthResult, onResult]);

  return oauth;
}

/** Everything the Hue section shows and does: connection, application key, lights, diagnostics. */
export function useHueSection() {
  const { engine } = useLightControl();
  const hue = useProviderState('hue');
  const [error, setError] = useState<string | null>(null);
  const [diagnosing, setDiagnosing] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const appKey = useHueAppKey(engine);
  const oauth = useHueAuthorisation(engine, appKey.createKey, setError);

  const fail = useCallback(
    (message: string, cause?: unknown) => {
      setError(message);
      // SPEC §8: a Hue that is not connected or refuses the key marks the bridge provider
      // disconnected; the server says which by its code.
      if (isHueReconnectError(cause)) void engine?.markHueRefused(message);
    },
    [engine],
  );

  async function diagnose() {
    setDiagnosing(true);
    try {
      window.alert(describeDiagnostics(await fetchHueDiagnostics()));
    } catch (cause) {
      window.alert(
        describeDiagnostics({ connected: false, error: messageOf(cause, 'The diagnostics request failed') }),
      );
    } finally {
      setDiagnosing(false);
    }
  }

  async function pulse(id: string) {
    try {
      await pulseHueLight(id);
      setError(null);
    } catch (cause) {
      const message = messageOf(cause, T.hueCommandFailed);
      toast.error(message);
      fail(message, cause);
    }
  }

  async function disconnect() {
    setDisconnecting(true);
    try {
      await engine?.disconnectHue();
      appKey.resetKey();
      setError(null);
    } catch (cause) {
      setError(messageOf(cause, 'Failed to disconnect Hue'));
    } finally {
      setDisconnecting(false);
    }
  }

  function startConnect() {
    setError(null);
    oauth.start();
  }

  return {
    engine,
    hue,
    shownError: error ?? hue.error,
    appKey,
    oauthConnecting: oauth.connecting,
    startConnect,
    diagnosing,
    diagnose,
    pulse,
    disconnecting,
    disconnect,
  };
}
