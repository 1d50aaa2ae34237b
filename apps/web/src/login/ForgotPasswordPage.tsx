import { Link } from 'react-router';
import { Page } from '../ui/Page';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { CARD_CLASS, LINK_CLASS, LINK_TARGET_CLASS } from './FormField';

export function ForgotPasswordPage() {
  return (
    <Page width="prose" title="Forgot Password">
      <div className={`${CARD_CLASS} flex flex-col gap-6`}>
        <ForgotPasswordForm />
        <Link to="/login" className={`${LINK_CLASS} ${LINK_TARGET_CLASS} self-start`}>
          Back to Login
        </Link>
      </div>
    </Page>
  );
}
