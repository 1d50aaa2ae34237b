import { RESET_REDIRECT_MS, VALIDATION_MESSAGES, validateResetForm } from '@flaglight/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { resetPasswordRequest } from '../auth/auth-api';
import { AUTH_TEXTS, serverErrorText } from '../auth/auth-texts';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { CARD_CLASS, FormField, FormMessage, LINK_CLASS, LINK_TARGET_CLASS } from './FormField';

const PASSWORD_HINT =
  'At least 8 characters, with an uppercase and a lowercase letter, a number and one of @$!%*?&';

/** SPEC §2 Reset password: token from the query, both fields, /login 3 s after success. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const { register, handleSubmit, formState } = useForm({
    defaultValues: { password: '', confirmPassword: '' },
  });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (done === null) return;
    const timer = window.setTimeout(() => void navigate('/login', { replace: true }), RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = handleSubmit(async ({ password, confirmPassword }) => {
    setError(null);
    const form = validateResetForm({ token, password, confirmPassword });
    if (!form.ok) {
      setError(form.error);
      return;
    }
    try {
      const message = await resetPasswordRequest({ token: form.value.token, password, confirmPassword });
      setDone(message || 'Your password has been reset. You can now sign in.');
    } catch (failure) {
      setError(serverErrorText(failure) ?? AUTH_TEXTS.resetFailed);
    }
  });

  return (
    <Page width="prose" title="Reset Password">
      <div className={`${CARD_CLASS} flex flex-col gap-6`}>
        {token === '' ? (
          <>
            <FormMessage kind="error">{VALIDATION_MESSAGES.invalidResetLink}</FormMessage>
            <Link to="/forgot-password" className={`${LINK_CLASS} ${LINK_TARGET_CLASS} self-start`}>
              Request a new reset link
            </Link>
          </>
        ) : done !== null ? (
          <>
            <FormMessage kind="success">{done} Taking you to the login page…</FormMessage>
            <Link to="/login" className={buttonClass('primary', 'md', 'self-start')}>
              Go to Login
            </Link>
          </>
        ) : (
          <form
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            className="flex flex-col gap-5"
            aria-label="Choose a new password"
          >
            <FormField
              label="New Password"
              type="password"
              autoComplete="new-password"
              hint={PASSWORD_HINT}
              {...register('password')}
            />
            <FormField
              label="Confirm Password"
              type="password"
              autoComplete="new-password"
              {...register('confirmPassword')}
            />
            {error && <FormMessage kind="error">{error}</FormMessage>}
            <button type="submit" className={buttonClass('primary', 'lg')} disabled={formState.isSubmitting}>
              {formState.isSubmitting ? 'Resetting…' : 'Reset Password'}
            </button>
          </form>
        )}
        {done === null && (
          <Link to="/login" className={`${LINK_CLASS} ${LINK_TARGET_CLASS} self-start`}>
            Back to Login
          </Link>
        )}
      </div>
    </Page>
  );
}
