import { requiresReduceConfirmation } from '@flaglight/core';
import { useState } from 'react';
import { useAuth } from '../auth/auth-context';
import { useLocalSettings } from '../settings/local-settings';
import { toast } from '../toasts/toast';

interface Pending {
  seconds: number;
  announce?: string;
}

/**
 * The signed-in user's broadcast delay (SPEC §3) and its changes: a lower value waits for the
 * user's confirmation (SPEC §4), a higher one applies at once.
 */
export function useBroadcastDelay() {
  const { user } = useAuth();
  const [settings, update] = useLocalSettings(user?.email);
  const { delaySeconds, delayEnabled } = settings;
  const [pending, setPending] = useState<Pending | null>(null);

  const apply = (seconds: number, announce?: string) => {
    update({ delaySeconds: seconds });
    if (announce) toast.success(announce);
  };

  const request = (seconds: number, announce?: string) => {
    if (seconds === delaySeconds) return;
    if (requiresReduceConfirmation(delaySeconds, seconds)) setPending({ seconds, announce });
    else apply(seconds, announce);
  };

  const confirmReduce = () => {
    if (pending) apply(pending.seconds, pending.announce);
    setPending(null);
  };

  return {
    delaySeconds,
    delayEnabled,
    setDelayEnabled: (checked: boolean) => update({ delayEnabled: checked }),
    /** The value asked for while the lower one waits for confirmation, else the stored one. */
    shown: pending?.seconds ?? delaySeconds,
    pendingSeconds: pending?.seconds ?? null,
    request,
    confirmReduce,
    cancelReduce: () => setPending(null),
  };
}
