import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { verifyEmailRequest } from '../auth/auth-api';
import { useAuth } from '../auth/auth-context';
import { serverErrorText } from '../auth/auth-texts';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { CARD_CLASS, FormMessage } from './FormField';

export const VERIFY_PAGE_TEXTS = {
  title: 'Confirm E-mail',
  confirming: 'Confirming your e-mail address…',
  missingToken: 'This confirmation link is incomplete. Open the link from the e-mail again.',
  failed: 'The address could not be confirmed. Please try again later.',
} as const;

// A link works once: the request is made once per token, even when React runs the effect twice.
const requests = new Map<string, Promise<string>>();
function confirmOnce(token: string): Promise<string> {
  let request = requests.get(token);
  if (!request) {
    request = verifyEmailRequest(token);
    requests.set(token, request);
  }
  return request;
}

type State = { kind: 'confirming' } | { kind: 'done'; message: string } | { kind: 'failed'; error: string };

/** Issue 13: the page the sign-up e-mail's link opens; confirms the address and says so. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { isAuthenticated, refreshUser } = useAuth();
  const [state, setState] = useState<State>(() =>
    token === '' ? { kind: 'failed', error: VERIFY_PAGE_TEXTS.missingToken } : { kind: 'confirming' },
  );

  useEffect(() => {
    if (token === '') return;
    let current = true;
    confirmOnce(token).then(
      (message) => current && setState({ kind: 'done', message }),
      (error: unknown) =>
        current && setState({ kind: 'failed', error: serverErrorText(error) ?? VERIFY_PAGE_TEXTS.failed }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  // Signed in on this device: read the user again, so the dashboard's prompt goes away.
  const done = state.kind === 'done';
  useEffect(() => {
    if (done && isAuthenticated) refreshUser().catch(() => undefined);
  }, [done, isAuthenticated, refreshUser]);

  const next = isAuthenticated
    ? { to: '/dashboard', label: 'Go to Dashboard' }
    : { to: '/login', label: 'Sign In' };
  return (
    <Page width="prose" title={VERIFY_PAGE_TEXTS.title}>
      <div className={`${CARD_CLASS} flex flex-col gap-6`}>
        {state.kind === 'confirming' && <p role="status">{VERIFY_PAGE_TEXTS.confirming}</p>}
        {state.kind === 'done' && <FormMessage kind="success">{state.message}</FormMessage>}
        {state.kind === 'failed' && <FormMessage kind="error">{state.error}</FormMessage>}
        {state.kind !== 'confirming' && (
          <Link to={next.to} className={buttonClass('primary', 'md', 'self-start')}>
            {next.label}
          </Link>
        )}
      </div>
    </Page>
  );
}
