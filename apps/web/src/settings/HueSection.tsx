import { Activity, CircleCheck, KeyRound, Lightbulb, LogOut, Plug, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { ConnectionError } from '../lights/ConnectionError';
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
import { LIGHTS_TEXTS as T } from '../lights/lights-texts';
import { isProviderConnected } from '../lights/provider-store';
import { useHueOAuth } from '../lights/use-hue-oauth';
import { INPUT_CLASS } from '../login/FormField';
import { toast } from '../toasts/toast';
import { buttonClass } from '../ui/button-styles';
import { DiagnosticsButton } from './DiagnosticsButton';

type KeyStep =
  | { step: 'idle' }
  | { step: 'creating' }
  | { step: 'created'; key: string }
  | { step: 'storing'; key: string }
  | { step: 'stored' };

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message !== '' ? error.message : fallback;
}

/** SPEC §2 Settings 2: Philips Hue through its remote API (OAuth in a popup, tokens on the server). */
export function HueSection() {
  const { engine, hueAuthResult, setHueAuthResult } = useLightControl();
  const hue = useProviderState('hue');
  const [error, setError] = useState<string | null>(null);
  const [keyStep, setKeyStep] = useState<KeyStep>({ step: 'idle' });
  const [pastedKey, setPastedKey] = useState('');
  const [keyError, setKeyError] = useState<string | null>(null);
  const [diagnosing, setDiagnosing] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const ids = { key: useId(), created: useId() };

  const fail = useCallback(
    (message: string, cause?: unknown) => {
      setError(message);
      // SPEC §8: a Hue that is not connected or refuses the key marks the bridge provider
      // disconnected; the server says which by its code.
      if (isHueReconnectError(cause)) void engine?.markHueRefused(message);
    },
    [engine],
  );

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
    [engine, createKey],
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

  async function onStoreKey(event: FormEvent) {
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

  async function onDiagnostics() {
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

  async function onPulse(id: string) {
    try {
      await pulseHueLight(id);
      setError(null);
    } catch (cause) {
      const message = messageOf(cause, T.hueCommandFailed);
      toast.error(message);
      fail(message, cause);
    }
  }

  async function onDisconnect() {
    setDisconnecting(true);
    try {
      await engine?.disconnectHue();
      setKeyStep({ step: 'idle' });
      setError(null);
    } catch (cause) {
      setError(messageOf(cause, 'Failed to disconnect Hue'));
    } finally {
      setDisconnecting(false);
    }
  }

  const shownError = error ?? hue.error;
  // Shown both before and after connecting: diagnostics explain either state (SPEC §8).
  const diagnosticsButton = (
    <DiagnosticsButton
      label="Diagnostics"
      runningLabel="Running diagnostics…"
      running={diagnosing}
      onClick={() => void onDiagnostics()}
      inRow
    />
  );

  if (!isProviderConnected(hue)) {
    const checking = hue.status === 'connecting' || engine === null;
    return (
      <div className="flex flex-col gap-4">
        <p className="text-ink-300">
          Connect your Philips Hue account: a window opens at Philips Hue where you allow Flaglight to reach
          your bridge. Your Hue sign-in stays with Philips; Flaglight&apos;s server keeps only the access it
          is given.
        </p>
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className={buttonClass('primary', 'md', 'self-start')}
            disabled={oauth.connecting || checking}
            onClick={() => {
              setError(null);
              oauth.start();
            }}
          >
            <Plug aria-hidden="true" className="size-5" />
            {oauth.connecting ? 'Waiting for Hue…' : checking ? 'Checking…' : 'Connect Philips Hue'}
          </button>
          {diagnosticsButton}
        </div>
        {oauth.connecting && (
          <p role="status" className="text-ink-300">
            Finish in the Philips Hue window. It closes by itself when you are done.
          </p>
        )}
        {shownError && <ConnectionError message={shownError} />}
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <p role="status" className="flex items-center gap-2 text-ink-100">
        <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-flag-green" />
        Philips Hue connected
        {hue.devicesLoaded &&
          `: ${hue.devices.length} ${hue.devices.length === 1 ? 'light' : 'lights'} found`}
        .
      </p>
      {shownError && <ConnectionError message={shownError} />}

      <div className="flex flex-col gap-3">
        <h3 className="text-lg font-semibold">Application key</h3>
        <p className="text-ink-300">
          The bridge needs an application key for Flaglight. Create one, copy it, then paste it below to store
          it.
        </p>
        {hue.hasApplicationKey && keyStep.step === 'idle' && (
          <p className="text-ink-100">An application key is stored for your bridge.</p>
        )}
        <button
          type="button"
          className={buttonClass('secondary', 'md', 'self-start')}
          disabled={keyStep.step === 'creating'}
          onClick={() => void createKey()}
        >
          <KeyRound aria-hidden="true" className="size-5" />
          {keyStep.step === 'creating' ? 'Creating…' : 'Create application key'}
        </button>
        {(keyStep.step === 'created' || keyStep.step === 'storing') && (
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.created} className="text-ink-300">
              Your new application key
            </label>
            <input
              id={ids.created}
              readOnly
              value={keyStep.key}
              className={`${INPUT_CLASS} font-mono`}
              onFocus={(event) => event.currentTarget.select()}
            />
          </div>
        )}
        <form onSubmit={(event) => void onStoreKey(event)} className="flex flex-col gap-2" noValidate>
          <label htmlFor={ids.key} className="font-semibold text-ink-100">
            Application key
          </label>
          <div className="flex flex-col gap-3 sm:flex-row">
            <input
              id={ids.key}
              autoComplete="off"
              spellCheck={false}
              className={`${INPUT_CLASS} font-mono`}
              value={pastedKey}
              onChange={(event) => setPastedKey(event.target.value)}
            />
            <button
              type="submit"
              className={buttonClass('primary', 'md', 'sm:shrink-0')}
              disabled={keyStep.step === 'storing'}
            >
              {keyStep.step === 'storing' ? 'Storing…' : 'Store key'}
            </button>
          </div>
          {keyStep.step === 'stored' && (
            <p role="status" className="text-flag-green">
              Application key stored.
            </p>
          )}
          {keyError && (
            <p role="alert" className="text-danger">
              {keyError}
            </p>
          )}
        </form>
      </div>

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 className="text-lg font-semibold">Lights</h3>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            disabled={hue.loadingDevices}
            onClick={() => void engine?.loadHueLights()}
          >
            <RefreshCw aria-hidden="true" className="size-4" />
            {hue.loadingDevices ? 'Loading…' : hue.devicesLoaded ? 'Refresh lights' : 'Load lights'}
          </button>
        </div>
        {hue.devicesLoaded && hue.devices.length === 0 && <p className="text-ink-300">No lights found.</p>}
        {hue.devices.length > 0 && (
          <ul className="flex flex-col divide-y divide-ink-600 rounded-control border border-ink-600">
            {hue.devices.map((light) => (
              <li key={light.id} className="flex flex-wrap items-center gap-3 px-4 py-2">
                <Lightbulb aria-hidden="true" className="size-5 shrink-0 text-ink-300" />
                <span className="min-w-0 flex-1 break-words">
                  {light.label}
                  {light.type && <span className="ml-2 text-caption text-ink-300">{light.type}</span>}
                </span>
                <button
                  type="button"
                  className={buttonClass('ghost', 'sm')}
                  aria-label={`Test pulse on ${light.label}`}
                  onClick={() => void onPulse(light.id)}
                >
                  <Activity aria-hidden="true" className="size-4" />
                  Test pulse
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="flex flex-wrap gap-3">
        {diagnosticsButton}
        <button
          type="button"
          className={buttonClass('danger')}
          disabled={disconnecting}
          onClick={() => void onDisconnect()}
        >
          <LogOut aria-hidden="true" className="size-5" />
          Disconnect
        </button>
      </div>
    </div>
  );
}
