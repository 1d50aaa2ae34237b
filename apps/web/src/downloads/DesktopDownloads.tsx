import { Download } from 'lucide-react';
import { buttonClass } from '../ui/button-styles';
import { currentDesktopSystem, DESKTOP_BUILDS, MAC_NOTE, type DesktopSystem } from './desktop-builds';

type Build = keyof typeof DESKTOP_BUILDS;

/** The fitting build first; the Windows installer always stays on offer (SPEC §2 footer, Help). */
const BUILDS_FOR: Record<DesktopSystem, readonly Build[]> = {
  windows: ['windows'],
  linux: ['linux', 'windows'],
  other: ['windows', 'linux'],
};

// min-h-11: a 44 px tap target on a phone.
const FOOTER_LINK =
  'inline-flex min-h-11 items-center rounded text-ink-300 underline-offset-4 hover:text-ink-100 hover:underline';
const NOTE = 'text-caption text-ink-300';

/**
 * The companion's downloads for this visitor's system, as footer list items or as the Help
 * page's buttons. Server routes, not hash routes: the server answers with the file or a 404 page.
 */
export function DesktopDownloads({
  variant,
  system = currentDesktopSystem(),
}: {
  variant: 'footer' | 'panel';
  system?: DesktopSystem;
}) {
  const builds = BUILDS_FOR[system];
  if (variant === 'footer') {
    return (
      <>
        {builds.map((build) => (
          <li key={build} className="flex flex-wrap items-baseline gap-x-2">
            <a href={DESKTOP_BUILDS[build].href} className={`${FOOTER_LINK} gap-1.5`}>
              <Download aria-hidden="true" className="size-4 self-center" />
              {DESKTOP_BUILDS[build].label}
            </a>
            {build === 'linux' && <span className={NOTE}>{DESKTOP_BUILDS.linux.hint}</span>}
          </li>
        ))}
        {system === 'other' && <li className={NOTE}>{MAC_NOTE}</li>}
      </>
    );
  }
  return (
    <div className="flex flex-col items-start gap-2">
      <div className="flex flex-wrap items-center gap-3">
        {builds.map((build, index) => (
          <a
            key={build}
            href={DESKTOP_BUILDS[build].href}
            className={buttonClass(index === 0 ? 'primary' : 'secondary')}
          >
            <Download aria-hidden="true" className="size-5" />
            {DESKTOP_BUILDS[build].label}
          </a>
        ))}
      </div>
      {builds.includes('linux') && <p className={NOTE}>Linux (x64): {DESKTOP_BUILDS.linux.hint}.</p>}
      <a href={DESKTOP_BUILDS.raspberryPi.href} className={buttonClass('secondary')}>
        <Download aria-hidden="true" className="size-5" />
        {DESKTOP_BUILDS.raspberryPi.label}
      </a>
      <p className={NOTE}>{DESKTOP_BUILDS.raspberryPi.hint}</p>
      {system === 'other' && <p className={NOTE}>{MAC_NOTE}</p>}
    </div>
  );
}
