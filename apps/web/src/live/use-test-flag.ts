import { DEVICE_TESTS_PER_MINUTE } from '@flaglight/contract/limits';
import type { EffectFlag } from '@flaglight/core';
import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { serverErrorText } from '../auth/auth-texts';
import { useCompanionDevices } from '../companion/companion-store';
import { testCompanions } from '../devices/device-api';
import { useLights } from '../lights/lights-context';
import { flushPreferencesSave } from '../settings/preferences-sync';
import { LIVE_TEXTS } from './live-texts';

export type TestResult =
  | { kind: 'none' }
  | { kind: 'sending' | 'sent'; flag: EffectFlag }
  | { kind: 'refused'; flag: EffectFlag; played: boolean; reason: string | null };

/** Why the account's companions did not play a test, in plain words. */
function describeTestRefusal(error: unknown): string {
  if (error instanceof ApiError && error.status === 429)
    return LIVE_TEXTS.testTooMany(DEVICE_TESTS_PER_MINUTE);
  if (error instanceof ApiError) return serverErrorText(error) ?? LIVE_TEXTS.testServerFault;
  return LIVE_TEXTS.testOffline;
}

/**
 * "Test your lights": plays a flag now (never behind the broadcast delay) on this browser's lights
 * and the on-screen light, and on the lights of the account's online companions
 * (`POST /api/devices/test`). `result` says what happened to the latest test (answers to earlier
 * ones may come after it and are dropped); `none` is SPEC §8's "no lights" case.
 */
export function useTestFlag(): { test: (flag: EffectFlag) => void; result: TestResult | null } {
  const lights = useLights();
  const { user } = useAuth();
  const email = user?.email;
  const online = useCompanionDevices(email)?.filter((device) => device.online) ?? [];
  const companionOnline = online.length > 0;
  // Paused on their status pages, companions leave their lights as they are: a test is not "sent".
  const allPaused = companionOnline && online.every((device) => device.state?.paused === true);
  const [result, setResult] = useState<TestResult | null>(null);
  const latest = useRef(0);

  const test = useCallback(
    (flag: EffectFlag) => {
      const press = ++latest.current;
      const report = (next: TestResult) => {
        if (press === latest.current) setResult(next);
      };
      const played = lights.playTest(flag);
      if (!companionOnline) {
        report(played ? { kind: 'sent', flag } : { kind: 'none' });
        return;
      }
      report({ kind: 'sending', flag });
      // The companions play the account's saved looks: a look changed a moment ago is saved first.
      // What the page says is what the companions did: a refusal (429, a fault) is said as such.
      flushPreferencesSave(email)
        .then(() => testCompanions(flag))
        .then(
          ({ devices }) =>
            report(
              allPaused
                ? { kind: 'refused', flag, played, reason: LIVE_TEXTS.testPaused }
                : devices > 0 || played
                  ? { kind: 'sent', flag }
                  : { kind: 'refused', flag, played, reason: null },
            ),
          (error: unknown) => report({ kind: 'refused', flag, played, reason: describeTestRefusal(error) }),
        );
    },
    [lights, companionOnline, allPaused, email],
  );
  return { test, result };
}
