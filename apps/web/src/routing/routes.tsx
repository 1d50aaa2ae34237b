import { lazy } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../landing/LandingPage';
import { AppLayout } from '../layout/AppLayout';
import { AboutPage } from '../legal/AboutPage';
import { PrivacyPage } from '../legal/PrivacyPage';
import { TermsPage } from '../legal/TermsPage';
import {
  loadAdminPage,
  loadDashboardPage,
  loadHelpPage,
  loadLoginPage,
  loadSettingsPage,
} from './lazy-screens';
import { AdminOnly, SignedInOnly, SignedOutOnly } from './route-guards';
import { RouteErrorPage } from './RouteErrorPage';

// Everything but the landing is split out so the landing's bundle stays small (DESIGN §7): the
// sign-in forms (react-hook-form, the bot check), the debug screens and the signed-in screens.
const LoginPage = lazy(() => loadLoginPage().then((m) => ({ default: m.LoginPage })));
const ForgotPasswordPage = lazy(() =>
  import('../login/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../login/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazy(() =>
  import('../login/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })),
);
const SimpleLoginPage = lazy(() =>
  import('../debug/SimpleLoginPage').then((m) => ({ default: m.SimpleLoginPage })),
);
const MinimalDashboardPage = lazy(() =>
  import('../debug/MinimalDashboardPage').then((m) => ({ default: m.MinimalDashboardPage })),
);
const DashboardPage = lazy(() => loadDashboardPage().then((m) => ({ default: m.DashboardPage })));
const SettingsPage = lazy(() => loadSettingsPage().then((m) => ({ default: m.SettingsPage })));
const LinkDevicePage = lazy(() =>
  import('../devices/LinkDevicePage').then((m) => ({ default: m.LinkDevicePage })),
);
const HelpPage = lazy(() => loadHelpPage().then((m) => ({ default: m.HelpPage })));
const AdminPage = lazy(() => loadAdminPage().then((m) => ({ default: m.AdminPage })));

/** Every route of SPEC §2 with its access rule. */
export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <SignedOutOnly />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
        ],
      },
      // The sign-up e-mail's link: open signed in or out (it may open on another device); it confirms
      // only for the signed-in account it was made for, and signed out asks to sign in first.
      { path: 'verify-email', element: <VerifyEmailPage /> },
      // A companion's link: signed out, it goes through sign-in and comes back with its code.
      { path: 'link', element: <LinkDevicePage /> },
      { path: 'simple-login', element: <SimpleLoginPage /> },
      { path: 'minimal-dashboard', element: <MinimalDashboardPage /> },
      {
        element: <SignedInOnly />,
        children: [
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'help', element: <HelpPage /> },
        ],
      },
      {
        path: 'admin',
        element: (
          <AdminOnly>
            <AdminPage />
          </AdminOnly>
        ),
      },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'aboutme', element: <AboutPage /> },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createHashRouter(appRoutes);
}
