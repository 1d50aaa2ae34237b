import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';
import { seedSession } from '../fixtures';
import { adminSession, setTrialExpires, signUpViaApi, upgradeViaAdmin } from './accounts';

/** Who is signed in for a shot; `expired` is a trial account whose trial ended yesterday. */
export type ShotUser = 'trial' | 'lifetime' | 'admin' | 'expired';

/** One screen (a route, maybe driven into a state) that the screenshot suite compares and audits. */
export interface Screen {
  name: string;
  route: string;
  heading: string | RegExp;
  /** What shows the screen is there, when not its level-1 heading (a modal hides the page's). */
  ready?: (page: Page) => Locator;
  user?: ShotUser;
  /** Drives the screen into its state after the heading shows; resolves when it holds still. */
  prepare?: (page: Page) => Promise<void>;
  /** What moves or differs per run (clocks, the live flag, e-mail addresses, counts). */
  mask?: (page: Page) => Locator[];
  /** More stylesheets for the shot (beside SHOT_STYLES), for what changes its size per run. */
  stylePaths?: string[];
  /** Console errors the screen shows on purpose. */
  expectedConsoleErrors?: RegExp;
}

/** Every screen's own clock reads this (the demo race itself runs on the server's clock). */
export const FIXED_NOW = new Date('2026-03-08T04:00:00Z');

/**
 * Signs in for a shot. The address is the same on every run (each run has a fresh database) and
 * as long on a retry (`tag` ends in the retry's number), so the text around it never reflows.
 */
export async function signInAsShotUser(page: Page, user: ShotUser, tag: string): Promise<void> {
  if (user === 'admin') {
    await seedSession(page, await adminSession(page.request));
    return;
  }
  let session = await signUpViaApi(page.request, `shot-${tag}@example.com`);
  if (user === 'lifetime') {
    await upgradeViaAdmin(page.request, session.user.id);
    session = { ...session, user: { ...session.user, plan: 'lifetime', trialExpires: null } };
  }
  // Before the page's fixed clock too, or the page would think the trial still runs.
  if (user === 'expired') setTrialExpires(session.user.email, new Date(FIXED_NOW.getTime() - 86_400_000));
  await seedSession(page, session);
}

const STYLES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshot-styles');
/** Stylesheets for every shot: the live race's moving parts take a fixed space. */
export const SHOT_STYLES = [path.join(STYLES, 'moving-parts.css')];

/**
 * For each full-page `toHaveScreenshot`. A full-page picture of the tallest screens is large
 * (settings with every section open: 1440 x 8,329 px), and Playwright takes it once more whenever
 * the first does not match: 3.3 s on an idle 2-core machine, over 5 s (the journeys' time for an
 * expectation) on a loaded, slower one; Flags & effects at 1440 px missed 7.5 s on both tries on one.
 */
export const SHOT_TIMEOUT_MS = paced(20_000);

const raceControl = (page: Page) => page.getByRole('region', { name: 'Race Control' });

/**
 * The dashboard's moving parts: the live flag and its history, the feed's health, the timeline.
 * Found even behind a modal dialog, which hides the page from the accessibility tree: the feed's
 * health there follows the journeys that switch the shared F1 feed off and on meanwhile.
 */
function dashboardMask(page: Page): Locator[] {
  const hidden = { includeHidden: true };
  const region = page.getByRole('region', { name: 'Race Control', ...hidden });
  return [
    region.getByRole('status', { name: 'Current flag', ...hidden }),
    region.getByRole('region', { name: 'Session timeline', ...hidden }),
    region.getByRole('status', { name: 'Live source', ...hidden }),
    page.getByTestId('screen-light'),
  ];
}

/** Opens every collapsed section of Settings, whichever sections there are. */
async function openEverySection(page: Page): Promise<void> {
  const collapsed = page.locator('main h2 button[aria-expanded="false"]');
  while ((await collapsed.count()) > 0) await collapsed.first().click();
}

/**
 * Waits for the dashboard's auto-connect, or presses Connect when it did not start. A check of the
 * dashboard waits for this first: the Connect button turns into Disconnect in place, and a check
 * that reads its colours across that change compares one style's text with the other's background.
 */
export async function connectLive(page: Page): Promise<void> {
  const disconnect = raceControl(page).getByRole('button', { name: 'Disconnect' });
  // Auto-connect (on by default) usually connects by itself; pressing Connect while it is on its
  // way would race it, so Connect is pressed only when it has not.
  const connected = await disconnect
    .waitFor({ timeout: paced(8_000) })
    .then(() => true)
    .catch(() => false);
  if (connected) return;
  await raceControl(page).getByRole('button', { name: 'Connect', exact: true }).click();
  await disconnect.waitFor();
}

/** Auto-connect (on by default) follows the live demo race; the picture waits for it, then leaves. */
async function disconnectAfterAutoConnect(page: Page): Promise<void> {
  await connectLive(page);
  await raceControl(page).getByRole('button', { name: 'Disconnect' }).click();
  await raceControl(page).getByRole('button', { name: 'Connect', exact: true }).waitFor();
}

async function startReplay(page: Page): Promise<void> {
  await raceControl(page).getByRole('button', { name: 'Watch a replay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Watch a replay' });
  await dialog.getByRole('combobox', { name: 'Recording' }).selectOption({
    label: '2021 Saudi Arabian Grand Prix – Race',
  });
  await dialog.getByRole('spinbutton', { name: 'Start at minute' }).fill('0');
  await dialog.getByRole('button', { name: 'Start replay' }).click();
  await raceControl(page).getByText('Connected · Replay').waitFor();
}

/**
 * A fan with no light at all: Setup Required. Auto-connect is let finish first; a Disconnect
 * pressed before it has connected would leave it connecting after the box is unticked.
 */
async function untickScreenLight(page: Page): Promise<void> {
  await disconnectAfterAutoConnect(page);
  await page
    .getByRole('region', { name: 'Light Control' })
    .getByRole('checkbox', { name: 'Use this screen as a light' })
    .uncheck();
  await raceControl(page).getByRole('button', { name: 'Setup Required' }).waitFor();
}

/** SPEC §2's routes, and the dashboard's and settings' states. */
export const SCREENS: Screen[] = [
  { name: 'landing', route: '/', heading: /When the flag flies/ },
  { name: 'login', route: '/login', heading: 'Sign In' },
  { name: 'signup', route: '/login?mode=signup', heading: 'Sign Up' },
  { name: 'forgot-password', route: '/forgot-password', heading: 'Forgot Password' },
  { name: 'reset-password', route: '/reset-password?token=abc', heading: 'Reset Password' },
  { name: 'verify-email', route: '/verify-email?token=abc', heading: 'Confirm E-mail' },
  { name: 'link', route: '/link', heading: /companion/i, user: 'lifetime' },
  { name: 'simple-login', route: '/simple-login', heading: 'Test Login' },
  {
    name: 'minimal-dashboard',
    route: '/minimal-dashboard',
    heading: 'Minimal Dashboard',
    user: 'trial',
  },
  { name: 'privacy', route: '/privacy', heading: 'Privacy Policy' },
  { name: 'terms', route: '/terms', heading: 'Terms of Service' },
  { name: 'aboutme', route: '/aboutme', heading: 'About' },
  {
    name: 'dashboard-setup',
    route: '/dashboard',
    heading: 'Dashboard',
    user: 'trial',
    // A newcomer with no smart lights: the on-screen light follows the live race.
    prepare: connectLive,
    mask: dashboardMask,
  },
  {
    name: 'dashboard-no-provider',
    route: '/dashboard',
    heading: 'Dashboard',
    user: 'trial',
    prepare: untickScreenLight,
    mask: dashboardMask,
  },
  {
    name: 'dashboard-connected',
    route: '/dashboard',
    heading: 'Dashboard',
    user: 'lifetime',
    prepare: connectLive,
    mask: dashboardMask,
  },
  {
    name: 'dashboard-replay',
    route: '/dashboard',
    heading: 'Dashboard',
    user: 'lifetime',
    prepare: startReplay,
    mask: dashboardMask,
  },
  {
    name: 'dashboard-trial-ended',
    route: '/dashboard',
    heading: 'Dashboard',
    user: 'expired',
    ready: (page) => page.getByRole('dialog', { name: 'Trial Expired' }),
    // The server refuses an ended trial's live data, and the browser logs the 403.
    expectedConsoleErrors: /status of 403/,
    mask: dashboardMask,
  },
  {
    name: 'dashboard-licensed',
    route: '/dashboard',
    heading: 'Dashboard',
    user: 'lifetime',
    prepare: disconnectAfterAutoConnect,
    mask: dashboardMask,
  },
  { name: 'settings', route: '/settings', heading: 'Settings', user: 'trial' },
  {
    name: 'settings-all-open',
    route: '/settings',
    heading: 'Settings',
    user: 'trial',
    prepare: openEverySection,
  },
  { name: 'help', route: '/help', heading: 'Help', user: 'lifetime' },
  {
    name: 'help-search',
    route: '/help',
    heading: 'Help',
    user: 'lifetime',
    prepare: (page) => page.getByRole('searchbox', { name: 'Search help' }).fill('delay'),
  },
  {
    name: 'admin',
    route: '/admin',
    heading: 'Admin',
    user: 'admin',
    // Every run adds accounts: the counts differ, and the table's rows are left out of the picture.
    mask: (page) => [page.locator('dd')],
    stylePaths: [path.join(STYLES, 'admin-users.css')],
  },
];
