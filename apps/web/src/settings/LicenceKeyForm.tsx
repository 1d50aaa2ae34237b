import { LICENSE_REFRESH_AFTER_MS, LICENSE_SUCCESS_MESSAGE_MS, canSubmitLicenseKey } from '@flaglight/core';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { serverErrorText } from '../auth/auth-texts';
import { INPUT_CLASS } from '../login/FormField';
import { buttonClass } from '../ui/button-styles';
import { activateLicence, LICENCE_STATUS_QUERY_KEY } from './licence-api';

export const LICENCE_TEXTS = {
  activationFailed: 'Activation Failed',
  failed: 'Failed to activate license key',
} as const;

type LicenceState =
  | { kind: 'idle' }
  | { kind: 'submitting' }
  | { kind: 'success'; message: string }
  | { kind: 'failed'; error: string };

/** SPEC §8 licence failure: the server's error, else the fallback, or the fallback with the network message. */
export function describeLicenceFailure(error: unknown): string {
  const fromServer = serverErrorText(error);
  if (fromServer) return fromServer;
  if (error instanceof ApiError || !(error instanceof Error) || error.message === '')
    return LICENCE_TEXTS.failed;
  return `${LICENCE_TEXTS.failed}: ${error.message}`;
}

/** SPEC §4 Licence activation: idle → submitting → success (5 s, refresh after 1 s) or failed. */
export function LicenceKeyForm() {
  const inputId = useId();
  const [key, setKey] = useState('');
  const [state, setState] = useState<LicenceState>({ kind: 'idle' });
  const { refreshUser } = useAuth();
  const queryClient = useQueryClient();
  const timers = useRef<number[]>([]);

  useEffect(() => () => timers.current.forEach((timer) => window.clearTimeout(timer)), []);

  function later(ms: number, run: () => void) {
    timers.current.push(window.setTimeout(run, ms));
  }

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const submitting = state.kind === 'submitting';
    if (!canSubmitLicenseKey(key, { loading: submitting })) return;
    setState({ kind: 'submitting' });
    try {
      const result = await activateLicence(key.trim());
      setState({ kind: 'success', message: result.message });
      setKey('');
      later(LICENSE_SUCCESS_MESSAGE_MS, () =>
        setState((current) => (current.kind === 'success' ? { kind: 'idle' } : current)),
      );
      later(LICENSE_REFRESH_AFTER_MS, () => {
        refreshUser().catch((error: unknown) => console.warn('Refresh after licence failed', error));
        void queryClient.invalidateQueries({ queryKey: LICENCE_STATUS_QUERY_KEY });
      });
    } catch (error) {
      setState({ kind: 'failed', error: describeLicenceFailure(error) });
    }
  }

  function onKeyChange(value: string) {
    setKey(value);
    // The success message hides as soon as the key text changes (SPEC §4).
    if (state.kind === 'success') setState({ kind: 'idle' });
  }

  const submitting = state.kind === 'submitting';
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-3" noValidate>
      <label htmlFor={inputId} className="font-semibold text-ink-100">
        Licence key
      </label>
      <div className="flex flex-col gap-3 sm:flex-row">
        <input
          id={inputId}
          className={`${INPUT_CLASS} font-mono tracking-wider`}
          placeholder="XXXX-XXXX-XXXX-XXXX"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(event) => onKeyChange(event.target.value)}
        />
        <button
          type="submit"
          className={buttonClass('primary', 'md', 'sm:shrink-0')}
          disabled={!canSubmitLicenseKey(key, { loading: submitting })}
        >
          <KeyRound aria-hidden="true" className="size-5" />
          {submitting ? 'Activating…' : 'Activate'}
        </button>
      </div>
      {state.kind === 'success' && (
        <p role="status" className="rounded-control border border-accent/50 bg-accent/10 px-4 py-3">
          {state.message}
        </p>
      )}
      {state.kind === 'failed' && (
        <div role="alert" className="rounded-control border border-danger/50 bg-danger/10 px-4 py-3">
          <p className="font-semibold text-danger">{LICENCE_TEXTS.activationFailed}</p>
          <p className="text-ink-100">{state.error}</p>
        </div>
      )}
    </form>
  );
}
