import {
  LIFETIME_PRICE_AUD,
  MINIMUM_AGE,
  PARENTAL_CONSENT_AGE,
  REFUND_WINDOW_DAYS,
  TRIAL_DAYS,
} from '@flaglight/core';
import { useSupportEmail } from '../help/use-support-email';
import { Page } from '../ui/Page';
import { LegalSection, LegalUpdated } from './LegalSection';

/** The whole page with its text, Terms of Service, loaded with the page so the landing's bundle stays small (DESIGN §7). */
export function TermsContent() {
  const supportEmail = useSupportEmail();
  return (
    <Page
      width="prose"
      title="Terms of Service"
      lead="The agreement between you and Flaglight when you use it."
    >
      <div className="flex flex-col gap-10">
        <LegalUpdated />
        <LegalSection title="1. The service">
          <p>
            Flaglight follows live Formula 1 sessions through open race-data services and changes the colour
            of the smart lights you connect when race control shows a flag. Flaglight is independent and is
            not affiliated with, endorsed by or connected to Formula 1, the FIA or Formula One Management.
            Formula 1 and F1 are trademarks of their owners.
          </p>
          <p>
            Race data can arrive late, be incomplete or be wrong, and light providers can be unavailable.
            Flaglight is for entertainment: do not rely on it for anything where safety or money is at stake.
          </p>
        </LegalSection>
        <LegalSection title="2. Who can use it">
          <p>
            You must be at least {MINIMUM_AGE} years old. If you are under {PARENTAL_CONSENT_AGE}, a parent or
            guardian must agree to these terms for you. One account is for one person; keep your password to
            yourself and tell us if someone else used your account.
          </p>
        </LegalSection>
        <LegalSection title="3. Trial">
          <p>
            A new account starts with a free {TRIAL_DAYS}-day trial. When it ends, the dashboard asks you to
            upgrade before you can connect to live sessions again.
          </p>
        </LegalSection>
        <LegalSection title="4. Lifetime access and payment">
          <p>
            Lifetime access costs A${LIFETIME_PRICE_AUD}, paid once, with no subscription. Payments are taken
            by our checkout provider. A licence key activates one account, once. &ldquo;Lifetime&rdquo; means
            for as long as Flaglight is offered.
          </p>
        </LegalSection>
        <LegalSection title="5. Refunds">
          <p>
            Refunds are generally not given. If you believe you were charged in error, tell us within{' '}
            {REFUND_WINDOW_DAYS} days and we will investigate every billing error reported in that time.
          </p>
          <p>
            Nothing in these terms limits the rights you have under the Australian Consumer Law or other
            consumer law that applies to you.
          </p>
        </LegalSection>
        <LegalSection title="6. Lights and light effects">
          <p>
            Flaglight plays strobe effects on yellow, red and chequered flags. If you or anyone in the room is
            sensitive to flashing light, do not use Flaglight with those lights. You are responsible for the
            lights you connect and the accounts you connect them with (LIFX, Philips Hue), whose own terms
            also apply.
          </p>
        </LegalSection>
        <LegalSection title="7. Fair use">
          <p>
            Do not attack, overload or reverse-engineer the service, share your account or licence key, or use
            Flaglight to redistribute race data. We may suspend accounts that do.
          </p>
        </LegalSection>
        <LegalSection title="8. Liability">
          <p>
            Flaglight is provided as it is. To the extent the law allows, we are not liable for indirect
            losses, missed moments of a race, or problems caused by race-data services or light providers, and
            our total liability is limited to what you paid us.
          </p>
        </LegalSection>
        <LegalSection title="9. Ending and changes">
          <p>
            You can stop using Flaglight and ask us to delete your account at any time. We may change these
            terms; we will tell you by e-mail before a change that matters applies. Questions:{' '}
            <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
          </p>
        </LegalSection>
      </div>
    </Page>
  );
}
