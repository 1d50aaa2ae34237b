import { Activity, CircleCheck, KeyRound, Lightbulb, LogOut, Plug, RefreshCw } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { ConnectionError } from '../lights/ConnectionError';
import type { LightsEngine } from '../lights/lights-engine';
import { isProviderConnected, type HueSnapshot } from '../lights/provider-store';
import { INPUT_CLASS } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import { DiagnosticsButton } from './DiagnosticsButton';
import { FirstLightsChoice } from './looks/NoFlashingSwitch';
import { useHueSection, type HueAppKey } from './use-hue-section';

/** SPEC §2 Settings 2: Philips Hue through its remote API (OAuth in a popup, tokens on the server). */
export function HueSection() {
  const section = useHueSection();
  const { engine, hue, shownError } = section;
  // Shown both before and after connecting: diagnostics explain either state (SPEC §8).
  const diagnosticsButton = (
    <DiagnosticsButton
      label="Diagnostics"
      runningLabel="Running diagnostics…"
      running={section.diagnosing}
      onClick={() => void section.diagnose()}
      inRow
    />
  );

  if (!isProviderConnected(hue)) {
    return (
      <HueConnectPanel
        connecting={section.oauthConnecting}
        checking={hue.status === 'connecting' || engine === null}
        onConnect={section.startConnect}
        diagnosticsButton={diagnosticsButton}
        shownError={shownError}
      />
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
      <FirstLightsChoice />
      <HueAppKeyPanel hasApplicationKey={hue.hasApplicationKey} appKey={section.appKey} />
      <HueLightList hue={hue} engine={engine} onPulse={(id) => void section.pulse(id)} />
      <div className="flex flex-wrap gap-3">
        {diagnosticsButton}
        <button
          type="button"
          className={buttonClass('danger')}
          disabled={section.disconnecting}
          onClick={() => void section.disconnect()}
        >
          <LogOut aria-hidden="true" className="size-5" />
          Disconnect
        </button>
      </div>
    </div>
  );
}

/** Before connecting: what the popup does, the Connect button and its progress. */
function HueConnectPanel({
  connecting,
  checking,
  onConnect,
  diagnosticsButton,
  shownError,
}: {
  connecting: boolean;
  checking: boolean;
  onConnect: () => void;
  diagnosticsButton: ReactNode;
  shownError: string | null;
}) {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-ink-300">
        Connect your Philips Hue account: a window opens at Philips Hue where you allow Flaglight to reach
        your bridge. Your Hue sign-in stays with Philips; Flaglight&apos;s server keeps only the access it is
        given.
      </p>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className={buttonClass('primary', 'md', 'self-start')}
          disabled={connecting || checking}
          onClick={onConnect}
        >
          <Plug aria-hidden="true" className="size-5" />
          {connecting ? 'Waiting for Hue…' : checking ? 'Checking…' : 'Connect Philips Hue'}
        </button>
        {diagnosticsButton}
      </div>
      {connecting && (
        <p role="status" className="text-ink-300">
          Finish in the Philips Hue window. It closes by itself when you are done.
        </p>
      )}
      {shownError && <ConnectionError message={shownError} />}
    </div>
  );
}

/** Creating a new application key (shown once to copy) and storing a pasted one. */
function HueAppKeyPanel({ hasApplicationKey, appKey }: { hasApplicationKey: boolean; appKey: HueAppKey }) {
  const { keyStep } = appKey;
  const createdId = useId();
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">Application key</h3>
      <p className="text-ink-300">
        The bridge needs an application key for Flaglight. Create one, copy it, then paste it below to store
        it.
      </p>
      {hasApplicationKey && keyStep.step === 'idle' && (
        <p className="text-ink-100">An application key is stored for your bridge.</p>
      )}
      <button
        type="button"
        className={buttonClass('secondary', 'md', 'self-start')}
        disabled={keyStep.step === 'creating'}
        onClick={() => void appKey.createKey()}
      >
        <KeyRound aria-hidden="true" className="size-5" />
        {keyStep.step === 'creating' ? 'Creating…' : 'Create application key'}
      </button>
      {(keyStep.step === 'created' || keyStep.step === 'storing') && (
        <div className="flex flex-col gap-1">
          <label htmlFor={createdId} className="text-ink-300">
            Your new application key
          </label>
          <input
            id={createdId}
            readOnly
            value={keyStep.key}
            className={`${INPUT_CLASS} font-mono`}
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      )}
      <HueStoreKeyForm appKey={appKey} />
    </div>
  );
}

function HueStoreKeyForm({ appKey }: { appKey: HueAppKey }) {
  const { keyStep, keyError } = appKey;
  const keyId = useId();
  return (
    <form onSubmit={(event) => void appKey.storeKey(event)} className="flex flex-col gap-2" noValidate>
      <label htmlFor={keyId} className="font-semibold text-ink-100">
        Application key
      </label>
      <div className="flex flex-col gap-3 sm:flex-row">
        <input
          id={keyId}
          autoComplete="off"
          spellCheck={false}
          className={`${INPUT_CLASS} font-mono`}
          value={appKey.pastedKey}
          onChange={(event) => appKey.setPastedKey(event.target.value)}
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
  );
}

/** The bridge's lights, each with a test pulse, and the button that loads them again. */
function HueLightList({
  hue,
  engine,
  onPulse,
}: {
  hue: HueSnapshot;
  engine: LightsEngine | null;
  onPulse: (id: string) => void;
}) {
  return (
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
                onClick={() => onPulse(light.id)}
              >
                <Activity aria-hidden="true" className="size-4" />
                Test pulse
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
