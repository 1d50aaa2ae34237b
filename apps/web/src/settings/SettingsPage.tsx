import { shouldShowUpgradeSection } from '@flaglight/core';
import { Crown, LogOut } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useSignOut } from '../auth/use-sign-out';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { SettingsSection } from './SettingsSection';
import { UpgradeSection } from './UpgradeSection';

export function SettingsPage() {
  const signOut = useSignOut();
  const { user } = useAuth();
  const [params] = useSearchParams();
  const wantsUpgrade = params.get('section') === 'upgrade';
  const [upgradeOpen, setUpgradeOpen] = useState(wantsUpgrade || user?.plan === 'trial');
  const upgradeTrigger = useRef<HTMLButtonElement>(null);
  const showUpgrade = user ? shouldShowUpgradeSection(user) : false;

  useEffect(() => {
    if (!wantsUpgrade) return;
    setUpgradeOpen(true);
    const trigger = upgradeTrigger.current;
    trigger?.scrollIntoView({ block: 'start' });
    trigger?.focus({ preventScroll: true });
  }, [wantsUpgrade]);

  return (
    <Page title="Settings">
      <div className="flex flex-col gap-6">
        {/* Sections 1 to 3 (the light providers and App Preferences) belong to the lights work. */}
        {showUpgrade && (
          <SettingsSection
            ref={upgradeTrigger}
            id="upgrade"
            title="Upgrade to Pro"
            icon={<Crown aria-hidden="true" className="size-5 text-flag-yellow" />}
            open={upgradeOpen}
            onOpenChange={setUpgradeOpen}
          >
            <UpgradeSection />
          </SettingsSection>
        )}
        <section
          aria-labelledby="sign-out-heading"
          className="flex flex-col items-start gap-4 rounded-card border border-ink-600 bg-ink-800 p-5 shadow-card md:p-6"
        >
          <h2 id="sign-out-heading" className="text-xl font-semibold">
            Account
          </h2>
          {user && <p className="break-all text-ink-300">Signed in as {user.email}</p>}
          <button type="button" className={buttonClass('danger')} onClick={signOut}>
            <LogOut aria-hidden="true" className="size-5" />
            Sign Out
          </button>
        </section>
      </div>
    </Page>
  );
}
