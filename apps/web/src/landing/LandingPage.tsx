import { Link } from 'react-router';
import { FLAG_STYLES } from '../flags/flag-styles';
import { Logo } from '../layout/Logo';
import { loadLoginPage } from '../routing/lazy-screens';
import { buttonClass } from '../ui/button-styles';
import { useDocumentTitle } from '../ui/use-document-title';
import { FlagPanelPreview } from './FlagPanelPreview';
import { GlowCursor } from './GlowCursor';
import { FEATURES, HOW_IT_WORKS, INTEGRATIONS } from './landing-content';
import { ProviderLogo } from './ProviderLogo';
import { RaceTrack } from './RaceTrack';

const SECTION_TITLE = 'font-display text-title font-bold tracking-tight uppercase italic';

// The sign-in screen is not part of the landing's bundle: fetch it when a visitor heads for it.
const preloadSignIn = () => void loadLoginPage();
const SIGN_IN_INTENT = { onPointerEnter: preloadSignIn, onFocus: preloadSignIn, onTouchStart: preloadSignIn };

export function LandingPage() {
  useDocumentTitle();
  return (
    <div className="flex flex-col">
      <GlowCursor />
      <div aria-hidden="true" className="h-2 bg-checkered opacity-90" />
      <LandingHeader />
      <HeroSection />
      <HowItWorksSection />
      <FlagsSection />
      <FeaturesSection />
      <IntegrationsSection />
      <CallToActionSection />
    </div>
  );
}

function LandingHeader() {
  return (
    <header className="mx-auto flex w-full max-w-content items-center justify-between gap-4 px-gutter py-5">
      <Logo />
      <nav aria-label="Site" className="flex items-center gap-0.5 sm:gap-1">
        <Link to="/aboutme" className={buttonClass('ghost', 'sm', 'max-[419px]:hidden')}>
          About
        </Link>
        <Link to="/login" {...SIGN_IN_INTENT} className={buttonClass('secondary', 'sm')}>
          Sign In
        </Link>
      </nav>
    </header>
  );
}

/** The promise, the two ways in (trial or sign-in), the price, and a live-looking flag panel. */
function HeroSection() {
  return (
    <section
      aria-labelledby="hero-title"
      className="mx-auto grid w-full max-w-content items-center gap-12 px-gutter pt-8 pb-16 md:pt-14 lg:grid-cols-[1.3fr_1fr] lg:pb-24"
    >
      <div className="flex flex-col items-start gap-6">
        <p className="inline-flex items-center gap-2 rounded-full border border-ink-600 bg-ink-800 px-3 py-1 text-caption font-semibold tracking-widest text-ink-300 uppercase">
          <span aria-hidden="true" className="size-2 rounded-full bg-flag-yellow" />
          Race flags on your smart lights
        </p>
        <h1
          id="hero-title"
          className="font-display text-display font-extrabold tracking-tight text-balance uppercase italic"
        >
          When the flag flies, <span className="text-flag-yellow">your room</span> knows.
        </h1>
        <p className="max-w-xl text-lead text-pretty text-ink-300">
          Flaglight follows every Formula 1 session live and turns your LIFX, Philips Hue, Nanoleaf or Govee
          lights yellow, red or chequered the moment race control does, held back by your broadcast delay so
          the room never spoils the TV.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link to="/login?mode=signup" {...SIGN_IN_INTENT} className={buttonClass('primary', 'lg')}>
            Start Free Trial
          </Link>
          <Link to="/login" {...SIGN_IN_INTENT} className={buttonClass('secondary', 'lg')}>
            Sign In
          </Link>
        </div>
        <p className="text-caption text-ink-300">
          Lifetime access A$20, once. No subscription.{' '}
          <Link to="/aboutme" className="text-ink-100 underline underline-offset-4 hover:text-accent">
            About Flaglight
          </Link>
        </p>
      </div>
      <FlagPanelPreview />
    </section>
  );
}

function HowItWorksSection() {
  return (
    <section aria-labelledby="how-title" className="border-t border-ink-700">
      <div className="mx-auto grid w-full max-w-content items-center gap-10 px-gutter py-16 lg:grid-cols-[1fr_1.1fr] lg:py-20">
        <div>
          <h2 id="how-title" className={SECTION_TITLE}>
            How it works
          </h2>
          <ol className="mt-8 flex flex-col gap-6">
            {HOW_IT_WORKS.map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span
                  aria-hidden="true"
                  className="flex size-11 shrink-0 items-center justify-center rounded-full border border-accent/50 bg-accent/10 font-display text-2xl font-bold text-accent italic"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="flex items-center gap-2 text-lg font-semibold text-ink-100">
                    <step.icon aria-hidden="true" className="size-5 text-ink-300" />
                    {step.title}
                  </h3>
                  <p className="mt-1 text-ink-300">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
        <div className="rounded-card border border-ink-700 bg-ink-900 p-4 sm:p-8">
          <RaceTrack className="h-auto w-full" />
          <p className="mt-2 text-center font-mono text-caption text-ink-300 uppercase">
            Sector 2 · yellow flag
          </p>
        </div>
      </div>
    </section>
  );
}

/** Every flag with its colour and the light effect it plays. */
function FlagsSection() {
  return (
    <section aria-labelledby="flags-title" className="border-t border-ink-700 bg-ink-900/60">
      <div className="mx-auto w-full max-w-content px-gutter py-16 lg:py-20">
        <h2 id="flags-title" className={SECTION_TITLE}>
          Every flag, in colour
        </h2>
        <p className="mt-3 max-w-2xl text-lead text-ink-300">
          Each race-control call plays its own light effect, so you can tell a yellow from a virtual safety
          car without looking at the screen.
        </p>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FLAG_STYLES.map((flag) => (
            <li key={flag.state} className="flex gap-4 rounded-card border border-ink-700 bg-ink-800 p-5">
              <span
                aria-hidden="true"
                className={`mt-1 size-5 shrink-0 rounded-full ring-2 ring-ink-950 ${flag.swatch}`}
                style={{ boxShadow: `0 0 18px 2px ${flag.color}` }}
              />
              <div>
                <h3 className="font-semibold text-ink-100">{flag.label}</h3>
                <p className="mt-1 text-caption text-ink-300">{flag.effect}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function FeaturesSection() {
  return (
    <section aria-labelledby="features-title" className="border-t border-ink-700">
      <div className="mx-auto w-full max-w-content px-gutter py-16 lg:py-20">
        <h2 id="features-title" className={SECTION_TITLE}>
          Built for race weekends
        </h2>
        <ul className="mt-10 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="flex flex-col gap-2">
              <feature.icon aria-hidden="true" className="size-7 text-accent" />
              <h3 className="text-lg font-semibold text-ink-100">{feature.title}</h3>
              <p className="text-ink-300">{feature.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The light brands Flaglight drives, each with its logo. */
function IntegrationsSection() {
  return (
    <section aria-labelledby="integrations-title" className="border-t border-ink-700 bg-ink-900/60">
      <div className="mx-auto w-full max-w-content px-gutter py-16 lg:py-20">
        <h2 id="integrations-title" className={SECTION_TITLE}>
          Works with your lights
        </h2>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {INTEGRATIONS.map((integration) => (
            <li
              key={integration.name}
              className="flex flex-col gap-4 rounded-card border border-ink-700 bg-ink-800 p-5"
            >
              <ProviderLogo src={integration.logo} name={integration.name} />
              <div>
                <h3 className="font-semibold text-ink-100">{integration.name}</h3>
                <p className="mt-1 text-caption text-ink-300">{integration.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function CallToActionSection() {
  return (
    <section aria-labelledby="cta-title" className="border-t border-ink-700">
      <div className="mx-auto flex w-full max-w-content flex-col items-start gap-6 px-gutter py-16 lg:flex-row lg:items-center lg:justify-between lg:py-20">
        <div>
          <h2 id="cta-title" className={SECTION_TITLE}>
            Lights out and away we go
          </h2>
          <p className="mt-2 max-w-xl text-lead text-ink-300">
            Your first race weekend is free. Lifetime access is A$20, once.
          </p>
        </div>
        <Link to="/login?mode=signup" {...SIGN_IN_INTENT} className={buttonClass('primary', 'lg')}>
          Start your free race weekend
        </Link>
      </div>
    </section>
  );
}
