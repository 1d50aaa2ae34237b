import { CircleCheck, LogOut, Plug, RefreshCw } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { ConnectionError } from '../lights/ConnectionError';
import { describeGoveeBudget, fetchGoveeDiagnostics, type GoveeDiagnostics } from '../lights/govee-api';
import { useLightControl, useProviderState } from '../lights/light-control-context';
import { LIGHTS_TEXTS as T } from '../lights/lights-texts';
import { isProviderConnected } from '../lights/provider-store';
import { INPUT_CLASS } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import { DiagnosticsButton } from './DiagnosticsButton';
import { DiagnosticsReport } from './DiagnosticsReport';
import { FirstLightsChoice } from './looks/NoFlashingSwitch';

type DiagnosticsState =
  | { step: 'idle' }
  | { step: 'running' }
  | { step: 'done'; result: GoveeDiagnostics }
  | { step: 'failed'; message: string };

/** The diagnostics answer in words: what is wrong (with what to do), and the day's Govee budget. */
function GoveeDiagnosticsReport({ result }: { result: GoveeDiagnostics }) {
  return (
    <DiagnosticsReport label="Govee diagnostics report">
      <p className={result.connected ? 'text-ink-100' : 'text-danger'}>{result.message}</p>
      {result.instructions && <p>{result.instructions}</p>}
      {result.connected && describeGoveeBudget(result.budget).map((line) => <p key={line}>{line}</p>)}
      {result.pendingLights > 0 && (
        <p>{`${result.pendingLights} light${result.pendingLights === 1 ? '' : 's'} waiting for Govee's per-minute allowance.`}</p>
      )}
      {result.lastError && (
        <p>{`Last problem (${new Date(result.lastError.at).toLocaleTimeString()}): ${result.lastError.message}`}</p>
      )}
    </DiagnosticsReport>
  );
}

/**
 * Settings → Govee: the account's Govee API key (like the LIFX token, but kept sealed on the
 * server: Govee's cloud does not take calls from a page, and the server keeps Govee's budgets).
 */
export function GoveeSection() {
  const { engine } = useLightControl();
  const govee = useProviderState('govee');
  const ids = { key: useId(), help: useId() };
  const [apiKey, setApiKey] = useState('');
  const [keyError, setKeyError] = useState<string | null>(null);
  const [diagnostics, setDiagnostics] = useState<DiagnosticsState>({ step: 'idle' });
  const [disconnecting, setDisconnecting] = useState(false);
  const connecting = govee.status === 'connecting' || engine === null;

  async function onConnect(event: FormEvent) {
    event.preventDefault();
    if (apiKey.trim() === '') {
      setKeyError(T.goveeKeyRequired);
      return;
    }
    if (connecting || !engine) return;
    setKeyError(null);
    setDiagnostics({ step: 'idle' });
    // The key is not kept in the page once the server has it.
    if (await engine.connectGovee(apiKey)) setApiKey('');
  }

  async function onDiagnostics() {
    setDiagnostics({ step: 'running' });
    try {
      setDiagnostics({ step: 'done', result: await fetchGoveeDiagnostics() });
    } catch (cause) {
      setDiagnostics({
        step: 'failed',
        message: cause instanceof Error && cause.message ? cause.message : 'The diagnostics request failed',
      });
    }
  }

  async function onDisconnect() {
    setDisconnecting(true);
    try {
      await engine?.disconnectGovee();
      setDiagnostics({ step: 'idle' });
    } catch (cause) {
      setKeyError(cause instanceof Error && cause.message ? cause.message : 'Failed to disconnect Govee');
    } finally {
      setDisconnecting(false);
    }
  }

  const diagnosticsBlock = (
    <>
      <DiagnosticsButton
        label="Govee diagnostics"
        runningLabel="Running diagnostics…"
        running={diagnostics.step === 'running'}
        onClick={() => void onDiagnostics()}
      />
      {diagnostics.step === 'done' && <GoveeDiagnosticsReport result={diagnostics.result} />}
      {diagnostics.step === 'failed' && <ConnectionError message={diagnostics.message} />}
    </>
  );

  if (isProviderConnected(govee)) {
    return (
      <div className="flex flex-col gap-4">
        <p role="status" className="flex items-center gap-2 text-ink-100">
          <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-flag-green" />
          <span>
            Govee connected
            {govee.devicesLoaded &&
              `: ${govee.devices.length} ${govee.devices.length === 1 ? 'light' : 'lights'} found`}
            . Pick the ones to drive in the dashboard&apos;s Light Control.
          </span>
        </p>
        <p className="text-ink-300">{T.goveeSolidOnly}</p>
        {govee.error && <ConnectionError message={govee.error} />}
        <FirstLightsChoice />
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={govee.loadingDevices}
            onClick={() => void engine?.loadGoveeLights()}
          >
            <RefreshCw aria-hidden="true" className="size-5" />
            {govee.loadingDevices ? 'Refreshing…' : 'Refresh devices'}
          </button>
          <button
            type="button"
            className={buttonClass('danger')}
            disabled={disconnecting}
            onClick={() => void onDisconnect()}
          >
            <LogOut aria-hidden="true" className="size-5" />
            {disconnecting ? 'Disconnecting…' : 'Disconnect Govee'}
          </button>
        </div>
        {diagnosticsBlock}
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={(event) => void onConnect(event)} className="flex flex-col gap-4" noValidate>
        <div id={ids.help} className="flex flex-col gap-2 text-ink-300">
          <p>Flaglight drives your Govee lights through Govee&apos;s cloud with your Govee API key.</p>
          <ol className="list-decimal space-y-1 pl-5">
            <li>In the Govee Home app, open Profile → Settings → Apply for API Key.</li>
            <li>Give a name and a reason; Govee e-mails you the key (applying again replaces it).</li>
            <li>
              Paste the key here. Flaglight&apos;s server keeps it encrypted and uses it only for your lights;
              it is never shown again.
            </li>
          </ol>
          <p>{T.goveeSolidOnly}</p>
        </div>
        <label htmlFor={ids.key} className="font-semibold text-ink-100">
          Govee API key
        </label>
        <div className="flex flex-col gap-3 sm:flex-row">
          <input
            id={ids.key}
            type="password"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={ids.help}
            className={`${INPUT_CLASS} font-mono`}
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
            disabled={govee.status === 'connecting'}
          />
          <button
            type="submit"
            className={buttonClass('primary', 'md', 'sm:shrink-0')}
            disabled={apiKey.trim() === '' || connecting}
          >
            <Plug aria-hidden="true" className="size-5" />
            {govee.status === 'connecting' ? 'Connecting…' : 'Connect Govee'}
          </button>
        </div>
        {keyError && (
          <p role="alert" className="text-danger">
            {keyError}
          </p>
        )}
        {govee.error && <ConnectionError message={govee.error} />}
      </form>
      {diagnosticsBlock}
    </div>
  );
}
