import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { checkPayments, upgradeAfterPayment } from './payments-api';

/**
 * SPEC §4 Plans, payment return: `payment=success` with a session id upgrades, refreshes the
 * user and goes to #/dashboard; without one a payment check runs; `payment=cancelled` returns
 * to the dashboard. Failures are only logged (SPEC §8).
 */
export function usePaymentReturn(): void {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { isAuthenticated, refreshUser, updateUser } = useAuth();
  const handled = useRef<string | null>(null);
  const payment = params.get('payment');
  const sessionId = params.get('session_id') ?? '';

  useEffect(() => {
    if (!isAuthenticated || (payment !== 'success' && payment !== 'cancelled')) return;
    const key = `${payment}:${sessionId}`;
    // Strict mode runs effects twice; one payment return is handled once.
    if (handled.current === key) return;
    handled.current = key;
    if (payment === 'cancelled') {
      void navigate('/dashboard', { replace: true });
      return;
    }
    void (async () => {
      try {
        const result = sessionId ? await upgradeAfterPayment(sessionId) : await checkPayments();
        if (result.user) updateUser(result.user);
        await refreshUser();
      } catch (error) {
        console.warn('Payment return handling failed', error);
      } finally {
        void navigate('/dashboard', { replace: true });
      }
    })();
  }, [isAuthenticated, payment, sessionId, navigate, refreshUser, updateUser]);
}
