/**
 * Screens the landing page does not need, loaded when first shown. The sign-in screen is also
 * asked for as soon as a visitor points at or focuses a link to it, so it is there on the click.
 */
export const loadLoginPage = () => import('../login/LoginPage');
export const loadDashboardPage = () => import('../dashboard/DashboardPage');
export const loadSettingsPage = () => import('../settings/SettingsPage');
export const loadHelpPage = () => import('../help/HelpPage');
export const loadAdminPage = () => import('../admin/AdminPage');

/** The signed-in screens by path, for the one the app opens on. */
const SCREENS_BY_PATH: Record<string, () => Promise<unknown>> = {
  '/dashboard': loadDashboardPage,
  '/settings': loadSettingsPage,
  '/help': loadHelpPage,
  '/admin': loadAdminPage,
};

/**
 * Starts loading the screen a hash route opens on (`#/dashboard?x=1` gives the dashboard), so its
 * chunk arrives beside the app shell's rather than after it: opened straight on the dashboard, the
 * app otherwise fetched the signed-in providers, then the screen, one round trip after the other.
 * Resolves true once that screen's chunk is in. A failed load is left to the screen's own lazy
 * import, which shows the error where it belongs.
 */
export async function preloadScreenFor(hash: string): Promise<boolean> {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  const load = SCREENS_BY_PATH[path];
  if (!load) return false;
  return load().then(
    () => true,
    () => false,
  );
}
