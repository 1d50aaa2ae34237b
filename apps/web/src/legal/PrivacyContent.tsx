import { MINIMUM_AGE, PARENTAL_CONSENT_AGE } from '@flaglight/core';
import { useSupportEmail } from '../help/use-support-email';
import { Page } from '../ui/Page';
import { LegalSection, LegalUpdated } from './LegalSection';

/** The whole page with its text, Privacy Policy, loaded with the page so the landing's bundle stays small (DESIGN §7). */
export function PrivacyContent() {
  const supportEmail = useSupportEmail();
  return (
    <Page width="prose" title="Privacy Policy" lead="What Flaglight keeps about you, why, and for how long.">
      <div className="flex flex-col gap-10">
        <LegalUpdated />
        <LegalSection title="Who we are">
          <p>
            Flaglight is an independent product that changes the colour of your smart lights when the flag
            changes in a live Formula 1 session. It is not affiliated with Formula 1, the FIA or Formula One
            Management. Questions about this policy go to{' '}
            <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
          </p>
        </LegalSection>
        <LegalSection title="What we collect">
          <ul>
            <li>
              <strong>Your account:</strong> your e-mail address, your password (stored only as a one-way
              hash, never readable), your plan, when you signed up, when you last signed in and when your
              trial ends.
            </li>
            <li>
              <strong>Payments:</strong> whether you bought lifetime access, the amount and currency, and your
              licence key (stored hashed). Card, PayPal and Apple Pay details go to our checkout provider and
              never reach us.
            </li>
            <li>
              <strong>Philips Hue:</strong> if you connect a Hue account, the access tokens Hue gives us,
              stored encrypted, so Flaglight can change your lights.
            </li>
            <li>
              <strong>Sessions you follow:</strong> which live session you connected to and when, so we can
              send the post-race e-mail once.
            </li>
          </ul>
        </LegalSection>
        <LegalSection title="What stays on your device">
          <p>
            Your LIFX token, the lights you selected, your broadcast delay and your preferences are kept in
            your browser&apos;s local storage, under your e-mail address, and are not sent to us. Signing out
            removes the session from this device. We use no advertising or tracking cookies.
          </p>
        </LegalSection>
        <LegalSection title="Services we rely on">
          <ul>
            <li>A bot check (Cloudflare Turnstile) when you sign up or sign in.</li>
            <li>Our checkout provider (Stripe) for payments.</li>
            <li>
              LIFX, Philips Hue and Govee, when you connect them in Settings, to control your lights through
              their cloud. Lights the desktop companion drives on your home network (LIFX, Philips Hue,
              Nanoleaf, Govee) are reached from your computer.
            </li>
            <li>
              Open race-data services for race-control messages and the calendar. They receive no data about
              you.
            </li>
            <li>An e-mail provider for password resets, receipts and the post-race e-mail.</li>
          </ul>
        </LegalSection>
        <LegalSection title="How long we keep it">
          <p>
            Your account data is kept while your account exists. Password-reset links expire after one hour.
            Payment records are kept as long as tax law requires. When you ask us to delete your account, we
            delete it and your Hue tokens within 30 days.
          </p>
        </LegalSection>
        <LegalSection title="Your choices">
          <p>
            You can ask for a copy of your data, have it corrected, or have your account deleted by e-mailing{' '}
            <a href={`mailto:${supportEmail}`}>{supportEmail}</a> from the address you signed up with.
            Disconnecting LIFX, Philips Hue or Govee in Settings removes its token or key.
          </p>
        </LegalSection>
        <LegalSection title="Children">
          <p>
            You must be at least {MINIMUM_AGE} to use Flaglight. If you are under {PARENTAL_CONSENT_AGE}, you
            need the consent of a parent or guardian. We do not knowingly keep data about anyone younger than{' '}
            {MINIMUM_AGE}; if you believe we do, tell us and we will delete it.
          </p>
        </LegalSection>
        <LegalSection title="Changes">
          <p>
            If this policy changes in a way that matters, we will say so by e-mail before the change applies.
            The date at the top shows the current version.
          </p>
        </LegalSection>
      </div>
    </Page>
  );
}
