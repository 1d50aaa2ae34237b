import type { User } from '@flaglight/core';
import { apiCall } from '../api/client';

/** POST /api/payments/checkout: the hosted checkout page to send the browser to. */
export function startCheckout(): Promise<{ url: string; sessionId: string }> {
  return apiCall('POST /api/payments/checkout');
}

export interface UpgradeResult {
  upgraded: boolean;
  user: User | null;
}

export async function upgradeAfterPayment(sessionId: string): Promise<UpgradeResult> {
  const { upgraded, user } = await apiCall('POST /api/payments/upgrade-after-payment', {
    body: { sessionId },
  });
  return { upgraded, user };
}

export async function checkPayments(): Promise<UpgradeResult> {
  const { upgraded, user } = await apiCall('POST /api/payments/check-payments');
  return { upgraded, user };
}
