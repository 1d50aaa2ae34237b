import { Link, NavLink } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { buttonClass } from '../ui/button-styles';
import { LifetimeBadge } from './LifetimeBadge';
import { Logo } from './Logo';
import { MobileMenu } from './MobileMenu';
import { deriveTopBarItems } from './nav-items';

const NAV_LINK =
  'rounded-control px-3 py-2 font-medium text-ink-300 transition-colors hover:bg-ink-700 hover:text-ink-100 ' +
  'aria-[current=page]:bg-ink-700 aria-[current=page]:text-ink-100';

export function TopBar() {
  const { isAuthenticated, isAdmin, user } = useAuth();
  const items = deriveTopBarItems({ isAuthenticated, isAdmin });

  return (
    <header className="sticky top-0 z-30 border-b border-ink-700 bg-ink-950/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-content items-center gap-3 px-gutter">
        <MobileMenu />
        <Link to="/" aria-label="Flaglight home" className="mr-auto flex min-h-11 items-center">
          <Logo />
        </Link>
        {user?.plan === 'lifetime' && <LifetimeBadge />}
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {items.map((item) =>
            item.primary ? (
              <Link key={item.label} to={item.to} className={buttonClass('primary', 'md', 'ml-2')}>
                {item.label}
              </Link>
            ) : (
              <NavLink key={item.label} to={item.to} className={NAV_LINK} end>
                {item.label}
              </NavLink>
            ),
          )}
        </nav>
      </div>
    </header>
  );
}
