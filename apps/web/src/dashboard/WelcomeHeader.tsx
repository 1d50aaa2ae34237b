import { shouldShowUpgradePrompt } from '@flaglight/core';
import { Crown } from 'lucide-react';
import { Link } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { LINK_CLASS } from '../login/FormField';
import { SETTINGS_UPGRADE_PATH } from '../settings/settings-paths';
import { VerifyEmailPrompt } from './VerifyEmailPrompt';

/**
 * SPEC §2 Dashboard welcome header: the Lifetime Access badge, or the trial's upgrade prompt; and,
 * until the address is confirmed, the quiet prompt to confirm it.
 */
export function WelcomeHeader() {
  const { user } = useAuth();
  if (!user) return null;
  const lifetime = user.plan === 'lifetime';
  const prompt = shouldShowUpgradePrompt(user);
  return (
    <section aria-label="Welcome" className="mb-8 flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-lead break-all text-ink-300">Welcome back, {user.email}</p>
        {lifetime && (
          <span className="inline-flex items-center gap-1.5 rounded-full border border-flag-yellow/50 bg-flag-yellow/10 px-3 py-1 text-caption font-semibold tracking-wide text-flag-yellow uppercase">
            <Crown aria-hidden="true" className="size-3.5" />
            Lifetime Access
          </span>
        )}
      </div>
      {prompt && (
        <p className="rounded-card border border-flag-yellow/40 bg-flag-yellow/10 px-5 py-4 text-ink-100">
          You are on the free trial.{' '}
          <Link to={SETTINGS_UPGRADE_PATH} className={`${LINK_CLASS} text-flag-yellow underline`}>
            Go to Settings to upgrade
          </Link>
        </p>
      )}
      <VerifyEmailPrompt />
    </section>
  );
}
