import { validateEmail } from '@flaglight/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { forgotPasswordRequest } from '../auth/auth-api';
import { AUTH_TEXTS } from '../auth/auth-texts';
import { buttonClass } from '../ui/button-styles';
import { FormField, FormMessage } from './FormField';

type Outcome = { kind: 'error' | 'success'; text: string } | null;

/** SPEC §2 reset-request view: e-mail only. */
export function ForgotPasswordForm({ initialEmail = '' }: { initialEmail?: string }) {
  const { register, handleSubmit, formState } = useForm({ defaultValues: { email: initialEmail } });
  const [outcome, setOutcome] = useState<Outcome>(null);

  const onSubmit = handleSubmit(async ({ email }) => {
    const valid = validateEmail(email);
    if (!valid.ok) {
      setOutcome({ kind: 'error', text: valid.error });
      return;
    }
    try {
      const message = await forgotPasswordRequest(valid.value);
      setOutcome({
        kind: 'success',
        text: message || 'If an account exists for that email, a password reset link is on its way.',
      });
    } catch (error) {
      console.warn('Forgot password failed', error);
      setOutcome({ kind: 'error', text: AUTH_TEXTS.resetEmailFailed });
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-5"
      aria-label="Reset password request"
    >
      <p className="text-ink-300">Enter your email and we will send you a link to choose a new password.</p>
      <FormField label="Email" type="email" autoComplete="email" inputMode="email" {...register('email')} />
      {outcome && <FormMessage kind={outcome.kind}>{outcome.text}</FormMessage>}
      <button type="submit" className={buttonClass('primary')} disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Sending…' : 'Send Reset Link'}
      </button>
    </form>
  );
}
