import { lazy } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { MinimalDashboardPage } from '../debug/MinimalDashboardPage';
import { SimpleLoginPage } from '../debug/SimpleLoginPage';
import { LandingPage } from '../landing/LandingPage';
import { AppLayout } from '../layout/AppLayout';
import { AboutPage } from '../legal/AboutPage';
import { PrivacyPage } from '../legal/PrivacyPage';
import { TermsPage } from '../legal/TermsPage';
import { ForgotPasswordPage } from '../login/ForgotPasswordPage';
import { LoginPage } from '../login/LoginPage';
import { ResetPasswordPage } from '../login/ResetPasswordPage';
import { VerifyEmailPage } from '../login/VerifyEmailPage';
import { AdminOnly, SignedInOnly, SignedOutOnly } from './route-guards';
import { RouteErrorPage } from './RouteErrorPage';

// The signed-in screens are split out so the landing's bundle stays small (DESIGN §7).
const DashboardPage = lazy(() =>
  import('../dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const SettingsPage = lazy(() =>
  import('../settings/SettingsPage').then((m) => ({ default: m.SettingsPage })),
);
const HelpPage = lazy(() => import('../help/HelpPage').then((m) => ({ default: m.HelpPage })));
const AdminPage = lazy(() => import('../admin/AdminPage').then((m) => ({ default: m.AdminPage })));

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
