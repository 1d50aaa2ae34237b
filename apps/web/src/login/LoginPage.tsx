import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { AUTH_TEXTS } from '../auth/auth-texts';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { AuthForm } from './AuthForm';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { CARD_CLASS, FormMessage, LINK_CLASS, LINK_TARGET_CLASS } from './FormField';

/**
 * SPEC §2 Login. The route guard sends a signed-in visitor of /login to /dashboard (the route
 * table); the 'Login successful' panel below is the page's own answer when it is rendered with
 * a session anyway (outside the guard), and the form shows the same text in the moment between
 * a successful sign-in and the navigation.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const { isAuthenticated } = useAuth();
  const [view, setView] = useState<'auth' | 'forgot'>('auth');
  const signUp = params.get('mode') === 'signup';

  if (isAuthenticated) {
    return (
      <Page width="prose" title="Sign In">
        <div className={`${CARD_CLASS} flex flex-col items-start gap-5`}>
          <FormMessage kind="success">{AUTH_TEXTS.loginSuccessful}</FormMessage>
          <Link to="/dashboard" className={buttonClass('primary')}>
            Go to Dashboard
          </Link>
        </div>
      </Page>
    );
  }

  if (view === 'forgot') {
    return (
      <Page width="prose" title="Forgot Password">
        <div className={`${CARD_CLASS} flex flex-col gap-6`}>
          <ForgotPasswordForm />
          <button
            type="button"
            className={`${LINK_CLASS} ${LINK_TARGET_CLASS} self-start`}
            onClick={() => setView('auth')}
          >
            Back to Login
          </button>
        </div>
      </Page>
    );
  }

  return (
    <Page
      width="prose"
      title={signUp ? 'Sign Up' : 'Sign In'}
      lead={
        signUp ? (
          <>
            Already have an account?{' '}
            <Link to="/login" className={LINK_CLASS}>
              Sign In
            </Link>
          </>
        ) : (
          <>
            New to Flaglight?{' '}
            <Link to="/login?mode=signup" className={LINK_CLASS}>
              Sign Up
            </Link>
          </>
        )
      }
    >
      <div className={`${CARD_CLASS} flex flex-col gap-6`}>
        {signUp && (
          <p className="text-ink-300">
            Start your free trial: your lights follow race control for a full race weekend.
          </p>
        )}
        {/* A new key per mode: switching clears the fields, the message and the bot check. */}
        <AuthForm key={signUp ? 'signup' : 'signin'} mode={signUp ? 'signup' : 'signin'} />
        {!signUp && (
          <button
            type="button"
            className={`${LINK_CLASS} ${LINK_TARGET_CLASS} self-start`}
            onClick={() => setView('forgot')}
          >
            Forgot your password?
          </button>
        )}
      </div>
    </Page>
  );
}
