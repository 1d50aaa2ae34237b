import { MailCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { resendVerificationRequest } from '../auth/auth-api';
import { useAuth } from '../auth/auth-context';
import { serverErrorText } from '../auth/auth-texts';
import { buttonClass } from '../ui/button-styles';

export const VERIFY_EMAIL_TEXTS = {
  title: 'Confirm your e-mail',
  resend: 'Resend e-mail',
  sending: 'Sending…',
  resendFailed: 'The e-mail could not be sent. Please try again later.',
} as const;

type ResendState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; message: string }
  | { kind: 'failed'; error: string };

/**
 * A quiet reminder for an account whose address is not confirmed yet (the trial works
 * all the same), with a button that mails the link again (the server allows a few an hour).
 * Nothing for a confirmed address, nor for a user stored by an older build (not known).
 */
export function VerifyEmailPrompt() {
  const { user, refreshUser } = useAuth();
  const titleId = useId();
  const [state, setState] = useState<ResendState>({ kind: 'idle' });
  if (!user || user.emailVerified !== false) return null;

  async function resend() {
    setState({ kind: 'sending' });
    try {
      const result = await resendVerificationRequest();
      setState({ kind: 'sent', message: result.message });
      // Confirmed meanwhile (another device): read the user again and the prompt goes away.
      if (!result.sent) await refreshUser().catch(() => undefined);
    } catch (error) {
      setState({ kind: 'failed', error: serverErrorText(error) ?? VERIFY_EMAIL_TEXTS.resendFailed });
    }
  }

  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-card border border-ink-600 bg-ink-800 px-5 py-4 text-ink-300 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ink-300" />
        <div className="flex flex-col gap-1">
          <p id={titleId} className="font-semibold text-ink-100">
            {VERIFY_EMAIL_TEXTS.title}
          </p>
          <p>
            We sent a link to <span className="break-all text-ink-100">{user.email}</span>. Open it to confirm
            the address is yours.
          </p>
          {/* Rendered empty from the start, so the answer is announced when it appears. */}
          <div role="status">{state.kind === 'sent' && <p>{state.message}</p>}</div>
          {state.kind === 'failed' && (
            <p role="alert" className="text-danger">
              {state.error}
            </p>
          )}
        </div>
      </div>
      <button
        type="button"
        className={buttonClass('secondary', 'sm', 'shrink-0 self-start sm:self-center')}
        disabled={state.kind === 'sending'}
        onClick={() => void resend()}
      >
        {state.kind === 'sending' ? VERIFY_EMAIL_TEXTS.sending : VERIFY_EMAIL_TEXTS.resend}
      </button>
    </section>
  );
}
