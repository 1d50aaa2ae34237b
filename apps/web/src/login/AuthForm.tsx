import { validateLoginForm, validateSignupForm } from '@flaglight/core';
import { startTransition, useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { loginRequest, signupRequest, type AuthResult } from '../auth/auth-api';
import { useAuth } from '../auth/auth-context';
import { AUTH_TEXTS, describeFailure } from '../auth/auth-texts';
import { BotCheck } from '../auth/BotCheck';
import { buttonClass } from '../ui/button-styles';
import { FormField, FormMessage } from './FormField';
import { pathAfterSignIn } from './next-path';

export type AuthMode = 'signin' | 'signup';

interface AuthFormProps {
  mode: AuthMode;
  /** The test login posts to /api/auth/login (SPEC §7). */
  loginPath?: '/auth/login' | '/api/auth/login';
  /** Called after a successful sign-in instead of going to the dashboard (or an allowed `next`). */
  onSignedIn?: (result: AuthResult) => void;
  /** Called with the failure text; the form shows it as well unless this returns true. */
  onFailure?: (text: string) => boolean | void;
  submitLabel?: string;
}

const PASSWORD_HINT =
  'At least 8 characters, with an uppercase and a lowercase letter, a number and one of @$!%*?&';

/** E-mail, password and the bot check, for sign-in or sign-up (SPEC §2 Login, §5). */
export function AuthForm({
  mode,
  loginPath = '/auth/login',
  onSignedIn,
  onFailure,
  submitLabel,
}: AuthFormProps) {
  const { login } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { register, handleSubmit, formState } = useForm({ defaultValues: { email: '', password: '' } });
  const [botToken, setBotToken] = useState<string | null>(null);
  const [resetSignal, setResetSignal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [succeeded, setSucceeded] = useState(false);
  const onToken = useCallback((token: string | null) => setBotToken(token), []);
  const signUp = mode === 'signup';

  const onSubmit = handleSubmit(async ({ email, password }) => {
    setError(null);
    const form = (signUp ? validateSignupForm : validateLoginForm)({
      email,
      password,
      botToken: botToken ?? '',
    });
    if (!form.ok) {
      setError(form.error);
      return;
    }
    const credentials = { email: form.value.email, password, turnstileToken: form.value.botToken };
    try {
      const result = signUp ? await signupRequest(credentials) : await loginRequest(credentials, loginPath);
      setSucceeded(true);
      if (onSignedIn) {
        login(result.token, result.user);
        onSignedIn(result);
        return;
      }
      // One transition with the navigation, so the signed-out guard never sees the new session first.
      startTransition(() => {
        login(result.token, result.user);
        void navigate(pathAfterSignIn(params.get('next')), { replace: true });
      });
    } catch (failure) {
      // The bot-check token was spent by this attempt: fetch a fresh one (DESIGN §5.5).
      setBotToken(null);
      setResetSignal((n) => n + 1);
      const text = signUp
        ? describeFailure(failure, AUTH_TEXTS.signupFailed)
        : describeFailure(failure, AUTH_TEXTS.loginFailed, AUTH_TEXTS.unexpectedError);
      if (onFailure?.(text) !== true) setError(text);
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-5"
      aria-label={signUp ? 'Sign up' : 'Sign in'}
    >
      <FormField label="Email" type="email" autoComplete="email" inputMode="email" {...register('email')} />
      <FormField
        label="Password"
        type="password"
        autoComplete={signUp ? 'new-password' : 'current-password'}
        hint={signUp ? PASSWORD_HINT : undefined}
        {...register('password')}
      />
      <BotCheck action={signUp ? 'signup' : 'login'} onToken={onToken} resetSignal={resetSignal} />
      {error && <FormMessage kind="error">{error}</FormMessage>}
      {succeeded && <FormMessage kind="success">{AUTH_TEXTS.loginSuccessful}</FormMessage>}
      <button type="submit" className={buttonClass('primary', 'lg')} disabled={formState.isSubmitting}>
        {formState.isSubmitting
          ? signUp
            ? 'Creating account…'
            : 'Signing in…'
          : (submitLabel ?? (signUp ? 'Create Account' : 'Sign In'))}
      </button>
    </form>
  );
}
