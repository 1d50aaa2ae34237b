import { shouldShowTrialExpiredModal } from '@flaglight/core';
import * as Dialog from '@radix-ui/react-dialog';
import { Crown, X } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { SETTINGS_UPGRADE_PATH } from '../settings/settings-paths';
import { buttonClass } from '../ui/button-styles';

/**
 * SPEC §2/§4 Trial Expired modal, for trial users past expiry (never admins or operators).
 * Maybe Later and close dismiss it; Upgrade opens Settings → Upgrade (DESIGN §6).
 */
export function TrialExpiredModal({ now = () => Date.now() }: { now?: () => number }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState(false);
  const expired = user ? shouldShowTrialExpiredModal(user, { now: now() }) : false;
  const open = expired && !dismissed;

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && setDismissed(true)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70 animate-backdrop-in motion-reduce:animate-none" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col gap-5 rounded-card border border-ink-600 bg-ink-800 p-6 shadow-card focus:outline-none md:p-8">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="font-display text-title font-bold tracking-tight uppercase italic">
              Trial Expired
            </Dialog.Title>
            <Dialog.Close
              aria-label="Close"
              className="inline-flex size-11 shrink-0 items-center justify-center rounded-control text-ink-300 hover:bg-ink-700 hover:text-ink-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
            >
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="text-ink-300">
            Your free trial has ended. Get Lifetime Access for A$20, one-time, to keep your lights in step
            with race control.
          </Dialog.Description>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close className={buttonClass('secondary')}>Maybe Later</Dialog.Close>
            <button
              type="button"
              className={buttonClass('primary')}
              onClick={() => {
                setDismissed(true);
                void navigate(SETTINGS_UPGRADE_PATH);
              }}
            >
              <Crown aria-hidden="true" className="size-5" />
              Upgrade Now
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
