import { LIFETIME_PRICE_AUD } from '@flaglight/core';
import { Link } from 'react-router';
import { useSupportEmail } from '../help/use-support-email';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';
import { LegalSection } from './LegalSection';

/** The whole page with its text, About, loaded with the page so the landing's bundle stays small (DESIGN §7). */
export function AboutContent() {
  const supportEmail = useSupportEmail();
  return (
    <Page width="prose" title="About" lead="A race-control flag panel for the room where you watch.">
      <div className="flex flex-col gap-10">
        <LegalSection title="Why Flaglight exists">
          <p>
            Flaglight follows live Formula 1 sessions, reads race control&apos;s flag calls and changes the
            colour of your smart lights to match: green, yellow, red, chequered, safety car, virtual safety
            car and fastest lap. A broadcast delay keeps the lights in step with your TV or stream, so the
            room adds to the race instead of spoiling it.
          </p>
          <p>
            It is built by an independent developer who watches every session with the lights down, and wanted
            the room to feel like the pit wall.
          </p>
        </LegalSection>
        <LegalSection title="How it works">
          <ul>
            <li>
              Race-control messages come from an open race-data service through Flaglight&apos;s own server.
            </li>
            <li>
              The server works out the flag once for everyone, sector by sector, and sends each change to your
              browser or the Windows desktop app.
            </li>
            <li>Your device waits your broadcast delay, then plays the effect on the lights you chose.</li>
          </ul>
        </LegalSection>
        <LegalSection title="Fair and simple">
          <p>
            One race weekend free, then A${LIFETIME_PRICE_AUD} for lifetime access, once. No ads, no tracking,
            no subscription.
          </p>
        </LegalSection>
        <LegalSection title="Not affiliated">
          <p>
            Flaglight is independent and is not affiliated with Formula 1, the FIA or Formula One Management.
            LIFX, Philips Hue, Nanoleaf and Govee are trademarks of their owners.
          </p>
        </LegalSection>
        <LegalSection title="Say hello">
          <p>
            Ideas, bugs, a light brand you want supported:{' '}
            <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
          </p>
        </LegalSection>
        <div className="flex flex-wrap gap-3">
          <Link to="/login?mode=signup" className={buttonClass('primary')}>
            Start Free Trial
          </Link>
          <Link to="/" className={buttonClass('secondary')}>
            Back to home
          </Link>
        </div>
      </div>
    </Page>
  );
}
