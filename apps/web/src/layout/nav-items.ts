export interface NavItem {
  label: string;
  to: string;
  /** Drawn as the primary call to action. */
  primary?: boolean;
}

export interface NavAuth {
  isAuthenticated: boolean;
  isAdmin: boolean;
}

/** SPEC §2 Navigation, top bar. */
export function deriveTopBarItems({ isAuthenticated, isAdmin }: NavAuth): NavItem[] {
  if (!isAuthenticated) {
    return [
      { label: 'Login', to: '/login' },
      { label: 'Get Started', to: '/login', primary: true },
    ];
  }
  const items: NavItem[] = [
    { label: 'Dashboard', to: '/dashboard' },
    { label: 'Settings', to: '/settings' },
    { label: 'Help', to: '/help' },
  ];
  if (isAdmin) items.push({ label: 'Admin', to: '/admin' });
  return items;
}

/** SPEC §2 Navigation, mobile slide-in menu. */
export function deriveMobileMenuItems({ isAuthenticated }: Pick<NavAuth, 'isAuthenticated'>): NavItem[] {
  const items: NavItem[] = [{ label: 'Home', to: '/' }];
  if (isAuthenticated) items.push({ label: 'Settings', to: '/settings' });
  items.push({ label: 'Help', to: '/help' });
  if (!isAuthenticated) {
    items.push(
      { label: 'Sign In', to: '/login' },
      { label: 'Sign Up', to: '/login?mode=signup', primary: true },
    );
  }
  return items;
}

/** SPEC §2 Navigation: the top bar shows everywhere except on / when signed out. */
export function isTopBarShown(pathname: string, isAuthenticated: boolean): boolean {
  return isAuthenticated || pathname !== '/';
}
