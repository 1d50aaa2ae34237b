import { apiRequest } from '../api/client';
import { parseUser, type User } from '../auth/user';

/** POST /api/payments/checkout: the hosted checkout page to send the browser to. */
export async function startCheckout(): Promise<{ url: string; sessionId: string }> {
  const body = await apiRequest<{ url?: unknown; sessionId?: unknown }>('/api/payments/checkout', {
    method: 'POST',
  });
  if (typeof body?.url !== 'string' || body.url === '') throw new Error('The server sent no checkout page');
  return { url: body.url, sessionId: typeof body.sessionId === 'string' ? body.sessionId : '' };
}

export interface UpgradeResult {
  upgraded: boolean;
  user: User | null;
}

function toUpgradeResult(body: { upgraded?: unknown; user?: unknown } | undefined): UpgradeResult {
  return { upgraded: body?.upgraded === true, user: parseUser(body?.user) };
}

export async function upgradeAfterPayment(sessionId: string): Promise<UpgradeResult> {
  return toUpgradeResult(await apiRequest('/api/payments/upgrade-after-payment', { body: { sessionId } }));
}

export async function checkPayments(): Promise<UpgradeResult> {
  return toUpgradeResult(await apiRequest('/api/payments/check-payments', { method: 'POST' }));
}
