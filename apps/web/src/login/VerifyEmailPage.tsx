import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { verifyEmailRequest } from '../auth/auth-api';
import { useAuth } from '../auth/auth-context';
import { serverErrorText } from '../auth/auth-texts';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { CARD_CLASS, FormMessage } from './FormField';
import { signInPath } from './next-path';

export const VERIFY_PAGE_TEXTS = {
  title: 'Confirm E-mail',
  confirming: 'Confirming your e-mail address…',
  missingToken: 'This confirmation link is incomplete. Open the link from the e-mail again.',
  failed: 'The address could not be confirmed. Please try again later.',
  signIn: 'Sign in to confirm your e-mail address.',
  ownAccountOnly:
    'Only the account that signed up with this address can confirm it. If you did not sign up with it, there is nothing to do: to take the address over, use "Forgot your password?" on the sign-in page.',
} as const;

// A link works once: the request is made once per link and session, even when React runs the
// effect twice; signed in again (another session), the link is tried again.
const requests = new Map<string, Promise<string>>();
function confirmOnce(token: string, session: string): Promise<string> {
  const key = `${session} ${token}`;
  let request = requests.get(key);
  if (!request) {
    request = verifyEmailRequest(token, session);
    requests.set(key, request);
  }
  return request;
}

type Outcome = { kind: 'done'; message: string } | { kind: 'failed'; error: string };

/**
 * The page the sign-up e-mail's link opens. The link confirms only the account it was made for,
 * signed in: the mail reaches whoever owns the mailbox, who may not be the person who signed up.
 * Signed out, the page asks to sign in (and comes back here); signed in, it confirms and says so.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { loading, isAuthenticated, token: session, refreshUser } = useAuth();
  // The outcome for one link and session; another session starts over.
  const [outcome, setOutcome] = useState<{ key: string; outcome: Outcome } | null>(null);
  const key = session ? `${session} ${token}` : null;

  useEffect(() => {
    if (token === '' || !session) return;
    const requestKey = `${session} ${token}`;
    let current = true;
    confirmOnce(token, session).then(
      (message) => current && setOutcome({ key: requestKey, outcome: { kind: 'done', message } }),
      (error: unknown) => {
        if (!current) return;
        // The session has ended on the server: reading the user again forgets it, and the page
        // then asks to sign in.
        if (error instanceof ApiError && error.code === 'unauthenticated')
          refreshUser().catch(() => undefined);
        setOutcome({
          key: requestKey,
          outcome: { kind: 'failed', error: serverErrorText(error) ?? VERIFY_PAGE_TEXTS.failed },
        });
      },
    );
    return () => {
      current = false;
    };
  }, [token, session, refreshUser]);

  const state: Outcome | { kind: 'confirming' } | { kind: 'signed-out' } =
    token === ''
      ? { kind: 'failed', error: VERIFY_PAGE_TEXTS.missingToken }
      : loading
        ? { kind: 'confirming' }
        : !isAuthenticated
          ? { kind: 'signed-out' }
          : outcome && outcome.key === key
            ? outcome.outcome
            : { kind: 'confirming' };

  // Read the user again, so the dashboard's prompt goes away.
  const done = state.kind === 'done';
  useEffect(() => {
    if (done) refreshUser().catch(() => undefined);
  }, [done, refreshUser]);

  const next = isAuthenticated
    ? { to: '/dashboard', label: 'Go to Dashboard' }
    : {
        to: token === '' ? '/login' : signInPath(`/verify-email?token=${encodeURIComponent(token)}`),
        label: 'Sign In',
      };
  return (
    <Page width="prose" title={VERIFY_PAGE_TEXTS.title}>
      <div className={`${CARD_CLASS} flex flex-col gap-6`}>
        {state.kind === 'confirming' && <p role="status">{VERIFY_PAGE_TEXTS.confirming}</p>}
        {state.kind === 'signed-out' && (
          <>
            <p className="text-ink-100">{VERIFY_PAGE_TEXTS.signIn}</p>
            <p className="text-ink-300">{VERIFY_PAGE_TEXTS.ownAccountOnly}</p>
          </>
        )}
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
