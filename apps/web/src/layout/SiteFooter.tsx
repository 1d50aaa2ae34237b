import { Link } from 'react-router';
import { DesktopDownloads } from '../downloads/DesktopDownloads';
import { Logo } from './Logo';

// min-h-11: a 44 px tap target on a phone.
const FOOTER_LINK =
  'inline-flex min-h-11 items-center rounded text-ink-300 underline-offset-4 hover:text-ink-100 hover:underline';

export function SiteFooter() {
  return (
    <footer className="border-t border-ink-700 bg-ink-900">
      <div className="mx-auto flex max-w-content flex-col gap-6 px-gutter py-10 md:flex-row md:items-start md:justify-between">
        <div className="flex max-w-md flex-col gap-3">
          <Logo />
          <p className="text-caption text-ink-300">
            Flaglight is an independent product and is not affiliated with Formula 1, the FIA or Formula One
            Management. Formula 1 and F1 are trademarks of their owners, used here only to describe the
            sessions Flaglight follows.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6">
            <li>
              <Link to="/aboutme" className={FOOTER_LINK}>
                About
              </Link>
            </li>
            <li>
              <Link to="/privacy" className={FOOTER_LINK}>
                Privacy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={FOOTER_LINK}>
                Terms
              </Link>
            </li>
            <DesktopDownloads variant="footer" />
          </ul>
        </nav>
      </div>
    </footer>
  );
}
