import { useNavigate } from 'react-router';
import { AuthForm } from '../login/AuthForm';
import { CARD_CLASS } from '../login/FormField';
import { Page } from '../ui/Page';

/** SPEC §2 plain test login: /api/auth/login, and an alert 'Login failed' on failure. */
export function SimpleLoginPage() {
  const navigate = useNavigate();
  return (
    <Page width="prose" title="Test Login" lead="A plain sign-in for testing.">
      <div className={CARD_CLASS}>
        <AuthForm
          mode="signin"
          loginPath="/api/auth/login"
          submitLabel="Login"
          onSignedIn={() => void navigate('/minimal-dashboard')}
          onFailure={() => {
            window.alert('Login failed');
            return true;
          }}
        />
      </div>
    </Page>
  );
}
