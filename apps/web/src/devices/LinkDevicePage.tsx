import type { PendingDevice } from '@flaglight/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { RouteLoading } from '../layout/RouteLoading';
import { CARD_CLASS, FormField, FormMessage } from '../login/FormField';
import { signInPath } from '../login/next-path';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { approveDevice, denyDevice, fetchPendingDevice, normalizeUserCode } from './device-api';

export const LINK_PAGE_TEXTS = {
  title: 'Link a Companion',
  question: 'Link this companion to your account?',
  codeLabel: 'Code shown by the companion',
  codeHint: 'Eight letters, like BCDF-GHJK. The companion prints it with the link to this page.',
  badCode: 'That is not a companion code: eight letters, like BCDF-GHJK.',
  loading: 'Looking up the companion…',
  linked: 'Linked. The companion now follows your account; you can close this page.',
  cancelled: 'Cancelled. The companion was not linked.',
  expired: 'This code has expired. Start linking again from the companion to get a new one.',
  unknown: 'No companion is waiting for this code. Check the code the companion shows, or start again.',
  failed: 'Something went wrong. Please try again.',
} as const;

type State =
  | { kind: 'loading' }
  | { kind: 'ask'; device: PendingDevice; busy: boolean }
  | { kind: 'linked' }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'expired_token') return LINK_PAGE_TEXTS.expired;
    if (error.code === 'not_found') return LINK_PAGE_TEXTS.unknown;
    if (error.code === 'rate_limited') return error.message;
  }
  return LINK_PAGE_TEXTS.failed;
}

function CodeForm({ onCode }: { onCode: (code: string) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = normalizeUserCode(value);
    if (code) onCode(code);
    else setError(LINK_PAGE_TEXTS.badCode);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormField
        label={LINK_PAGE_TEXTS.codeLabel}
        hint={LINK_PAGE_TEXTS.codeHint}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={20}
      />
      {error && <FormMessage kind="error">{error}</FormMessage>}
      <button type="submit" className={buttonClass('primary', 'md', 'self-start')}>
        Continue
      </button>
    </form>
  );
}

/**
 * The page a companion's link opens (`/#/link?code=XXXX-XXXX`, RFC 8628's verification URI): it
 * shows which companion asks and links it to the signed-in account only when the user says so.
 * Signed out, it goes through sign-in and comes back with the code.
 */
export function LinkDevicePage() {
  const [params, setParams] = useSearchParams();
  const given = params.get('code');
  const code = given === null ? null : normalizeUserCode(given);
  const { loading, isAuthenticated } = useAuth();
  const [state, setState] = useState<{ code: string; state: State } | null>(null);

  useEffect(() => {
    if (!code || !isAuthenticated) return;
    let current = true;
    fetchPendingDevice(code).then(
      (device) => current && setState({ code, state: { kind: 'ask', device, busy: false } }),
      (error: unknown) => current && setState({ code, state: { kind: 'error', message: messageOf(error) } }),
    );
    return () => {
      current = false;
    };
  }, [code, isAuthenticated]);

  if (loading) return <RouteLoading />;
  if (!isAuthenticated) return <Navigate to={signInPath(code ? `/link?code=${code}` : '/link')} replace />;

  const shown: State =
    given !== null && code === null
      ? { kind: 'error', message: LINK_PAGE_TEXTS.badCode }
      : state && state.code === code
        ? state.state
        : { kind: 'loading' };

  const decide = (device: PendingDevice, approve: boolean) => {
    if (!code) return;
    setState({ code, state: { kind: 'ask', device, busy: true } });
    (approve ? approveDevice(code) : denyDevice(code)).then(
      () => setState({ code, state: { kind: approve ? 'linked' : 'cancelled' } }),
      (error: unknown) => setState({ code, state: { kind: 'error', message: messageOf(error) } }),
    );
  };

  return (
    <Page width="prose" title={LINK_PAGE_TEXTS.title}>
      <div className={`${CARD_CLASS} flex flex-col gap-6`}>
        {given === null ? (
          <CodeForm onCode={(typed) => setParams({ code: typed })} />
        ) : (
          <>
            {shown.kind === 'loading' && <p role="status">{LINK_PAGE_TEXTS.loading}</p>}
            {shown.kind === 'ask' && (
              <>
                <p className="text-lg font-semibold text-ink-100">{LINK_PAGE_TEXTS.question}</p>
                <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
                  <dt className="text-ink-300">Name</dt>
                  <dd className="break-all text-ink-100">{shown.device.name}</dd>
                  <dt className="text-ink-300">Platform</dt>
                  <dd className="text-ink-100">{shown.device.platform}</dd>
                  <dt className="text-ink-300">Version</dt>
                  <dd className="text-ink-100">{shown.device.version}</dd>
                  <dt className="text-ink-300">Code</dt>
                  <dd className="font-mono text-ink-100">{shown.device.userCode}</dd>
                </dl>
                <p className="text-ink-300">Check that the companion shows the same code.</p>
                <div className="flex flex-wrap gap-3">
                  <button
                    type="button"
                    className={buttonClass('primary')}
                    disabled={shown.busy}
                    onClick={() => decide(shown.device, true)}
                  >
                    Link
                  </button>
                  <button
                    type="button"
                    className={buttonClass('secondary')}
                    disabled={shown.busy}
                    onClick={() => decide(shown.device, false)}
                  >
                    Cancel
                  </button>
                </div>
              </>
            )}
            {shown.kind === 'linked' && <FormMessage kind="success">{LINK_PAGE_TEXTS.linked}</FormMessage>}
            {shown.kind === 'cancelled' && (
              <FormMessage kind="success">{LINK_PAGE_TEXTS.cancelled}</FormMessage>
            )}
            {shown.kind === 'error' && <FormMessage kind="error">{shown.message}</FormMessage>}
            {(shown.kind === 'linked' || shown.kind === 'cancelled') && (
              <Link to="/settings" className={buttonClass('secondary', 'md', 'self-start')}>
                Go to Settings
              </Link>
            )}
            {shown.kind === 'error' && (
              <Link to="/link" className={buttonClass('secondary', 'md', 'self-start')}>
                Enter a code
              </Link>
            )}
          </>
        )}
      </div>
    </Page>
  );
}
