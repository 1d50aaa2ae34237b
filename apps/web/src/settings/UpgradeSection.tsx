import { LIFETIME_PRICE_AUD } from '@flaglight/core';
import { CreditCard } from 'lucide-react';
import { useState } from 'react';
import { useAuth } from '../auth/auth-context';
import { startCheckout } from '../payments/payments-api';
import { buttonClass } from '../ui/button-styles';
import { useLicenceStatus } from './licence-api';
import { LicenceKeyForm } from './LicenceKeyForm';

function formatDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleDateString();
}

/** SPEC §2 Settings 4, Upgrade to Pro: licence key entry and the A$20 payment upgrade. */
export function UpgradeSection() {
  const { user } = useAuth();
  const licence = useLicenceStatus();
  const [checkout, setCheckout] = useState<'idle' | 'starting' | 'failed'>('idle');
  const lifetime = user?.plan === 'lifetime';

  async function onPay() {
    setCheckout('starting');
    try {
      const { url } = await startCheckout();
      window.location.assign(url);
    } catch (error) {
      // SPEC §8: payment failures are only logged; the button says it did not start.
      console.warn('Checkout failed to start', error);
      setCheckout('failed');
    }
  }

  const activatedAt = formatDate(licence.data?.licenseDetails?.activatedAt);
  return (
    <div className="flex flex-col gap-8">
      {lifetime ? (
        <p className="text-ink-100">
          You have Lifetime Access.
          {licence.data?.hasActiveLicense && activatedAt && <> Licence active since {activatedAt}.</>}
        </p>
      ) : (
        <div className="flex flex-col gap-3">
          <h3 className="text-lg font-semibold">Lifetime Access: A${LIFETIME_PRICE_AUD}, one-time</h3>
          <p className="text-ink-300">
            One payment, no subscription. Pay by card, PayPal or Apple Pay through our checkout partner.
          </p>
          <button
            type="button"
            className={buttonClass('primary', 'lg', 'self-start')}
            disabled={checkout === 'starting'}
            onClick={() => void onPay()}
          >
            <CreditCard aria-hidden="true" className="size-5" />
            {checkout === 'starting' ? 'Opening checkout…' : `Upgrade for A$${LIFETIME_PRICE_AUD}`}
          </button>
          {checkout === 'failed' && (
            <p role="alert" className="text-danger">
              The checkout could not be opened. Please try again in a moment.
            </p>
          )}
        </div>
      )}
      <div className="flex flex-col gap-2">
        <h3 className="text-lg font-semibold">Have a licence key?</h3>
        <LicenceKeyForm />
      </div>
    </div>
  );
}
