import { Link } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { buttonClass } from '../ui/button-styles';
import { Page } from '../ui/Page';

export function MinimalDashboardPage() {
  const { user, logout } = useAuth();
  return (
    <Page width="prose" title="Minimal Dashboard">
      {user ? (
        <div className="flex flex-col items-start gap-4">
          <p className="break-all">
            Signed in as <strong className="font-semibold">{user.email}</strong>
          </p>
          <button type="button" className={buttonClass('secondary')} onClick={logout}>
            Logout
          </button>
        </div>
      ) : (
        <p className="text-ink-300">
          Not signed in.{' '}
          <Link to="/simple-login" className="font-semibold text-accent underline-offset-4 hover:underline">
            Test Login
          </Link>
        </p>
      )}
    </Page>
  );
}
