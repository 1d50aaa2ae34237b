import { CircleCheck, ExternalLink, LogOut, Plug, RefreshCw } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useAuth } from '../auth/auth-context';
import { ConnectionError } from '../lights/ConnectionError';
import { readLifxTokenFor } from '../lights/lifx-token';
import { useLightControl, useProviderState } from '../lights/light-control-context';
import { isProviderConnected } from '../lights/provider-store';
import { INPUT_CLASS } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import { FirstLightsChoice } from './looks/NoFlashingSwitch';

const LIFX_CLOUD_URL = 'https://cloud.lifx.com/settings';

/** SPEC §2 Settings 1: the LIFX cloud token (kept in this browser only, SPEC §3). */
export function LifxSection() {
  const { user } = useAuth();
  const { engine } = useLightControl();
  const lifx = useProviderState('lifx');
  const ids = { token: useId(), help: useId() };
  // A saved token is offered again (auto-connect off, or a connection that failed to come back).
  const email = user?.email;
  const [token, setToken] = useState(() => readLifxTokenFor(email) ?? '');
  useEffect(() => {
    const saved = readLifxTokenFor(email);
    if (saved) setToken((typed) => typed || saved);
  }, [email]);
  useEffect(() => {
    if (lifx.status === 'disconnected' && !lifx.hasToken && lifx.error) setToken('');
  }, [lifx.status, lifx.hasToken, lifx.error]);

  const loading = lifx.status === 'connecting' || engine === null;
  const blank = token.trim() === '';

  async function onConnect(event: FormEvent) {
    event.preventDefault();
    if (blank || loading || !engine) return;
    await engine.connectLifx(token);
  }

  if (isProviderConnected(lifx)) {
    const online = lifx.devices.filter((d) => d.connected).length;
    return (
      <div className="flex flex-col gap-4">
        <p role="status" className="flex items-center gap-2 text-ink-100">
          <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-flag-green" />
          <span>
            LIFX connected: {lifx.devices.length} {lifx.devices.length === 1 ? 'light' : 'lights'} found
            {lifx.devices.length > 0 && `, ${online} online`}. Pick the ones to drive in the dashboard&apos;s
            Light Control.
          </span>
        </p>
        {lifx.error && <ConnectionError message={lifx.error} />}
        <FirstLightsChoice />
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={lifx.loadingDevices}
            onClick={() => void engine?.refreshLifx()}
          >
            <RefreshCw aria-hidden="true" className="size-5" />
            {lifx.loadingDevices ? 'Refreshing…' : 'Refresh devices'}
          </button>
          <button
            type="button"
            className={buttonClass('danger')}
            onClick={() => {
              engine?.disconnectLifx();
              setToken('');
            }}
          >
            <LogOut aria-hidden="true" className="size-5" />
            Disconnect
          </button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={(event) => void onConnect(event)} className="flex flex-col gap-4" noValidate>
      <div id={ids.help} className="flex flex-col gap-2 text-ink-300">
        <p>Flaglight talks to your LIFX lights through the LIFX cloud with a personal access token.</p>
        <ol className="list-decimal space-y-1 pl-5">
          <li>
            Sign in at{' '}
            <a
              href={LIFX_CLOUD_URL}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 text-accent underline underline-offset-2"
            >
              cloud.lifx.com
              <ExternalLink aria-hidden="true" className="size-4" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
            .
          </li>
          <li>Open Settings → Personal access tokens and choose Generate New Token.</li>
          <li>Paste the token here. It stays in this browser and is never sent to Flaglight.</li>
        </ol>
      </div>
      <label htmlFor={ids.token} className="font-semibold text-ink-100">
        LIFX API token
      </label>
      <div className="flex flex-col gap-3 sm:flex-row">
        <input
          id={ids.token}
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={ids.help}
          className={`${INPUT_CLASS} font-mono`}
          value={token}
          onChange={(event) => setToken(event.target.value)}
          disabled={lifx.status === 'connecting'}
        />
        <button
          type="submit"
          className={buttonClass('primary', 'md', 'sm:shrink-0')}
          disabled={blank || loading}
        >
          <Plug aria-hidden="true" className="size-5" />
          {lifx.status === 'connecting' ? 'Connecting…' : 'Connect'}
        </button>
      </div>
      {lifx.error && <ConnectionError message={lifx.error} />}
    </form>
  );
}
