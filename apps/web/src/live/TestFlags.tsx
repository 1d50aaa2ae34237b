import { DEVICE_TESTS_PER_MINUTE } from '@flaglight/contract/limits';
import { EFFECT_FLAGS, type EffectFlag } from '@flaglight/core';
import { AlertTriangle } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { serverErrorText } from '../auth/auth-texts';
import { useCompanionDevices } from '../companion/companion-store';
import { testCompanions } from '../devices/device-api';
import { useLights } from '../lights/lights-context';
import { buttonClass } from '../ui/button-styles';
import { flagLabel, flagSwatch } from './display-flag';
import { LIVE_TEXTS } from './live-texts';

type TestResult =
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
 * SPEC §2: a button per flag plays it on the lights now, and on the lights of the account's online
 * companions (`POST /api/devices/test`); with neither, SPEC §8's alert.
 */
export function TestFlags() {
  const lights = useLights();
  const { user } = useAuth();
  const online = useCompanionDevices(user?.email)?.filter((device) => device.online) ?? [];
  const companionOnline = online.length > 0;
  // Paused on their status pages, companions leave their lights as they are: a test is not "sent".
  const allPaused = companionOnline && online.every((device) => device.state?.paused === true);
  const [result, setResult] = useState<TestResult | null>(null);
  // Only the latest press is reported (answers to earlier ones may come after it).
  const latest = useRef(0);

  const test = (flag: EffectFlag) => {
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
    // What the page says is what the companions did: a refusal (429, a fault) is said as such.
    testCompanions(flag).then(
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
  };

  return (
    <div className="flex flex-col gap-3">
      <h3 className="font-semibold">Test your lights</h3>
      {/* Natural widths that wrap: no label is cut, nothing pushes the panel wider on a phone. */}
      <div className="flex flex-wrap gap-2">
        {EFFECT_FLAGS.map((flag) => (
          <button
            key={flag}
            type="button"
            onClick={() => test(flag)}
            className={buttonClass('secondary', 'sm', 'justify-start')}
          >
            <span aria-hidden="true" className={`size-3.5 shrink-0 rounded-full ${flagSwatch(flag)}`} />
            {flagLabel(flag)}
          </button>
        ))}
      </div>
      {result?.kind === 'none' && (
        <div role="alert" className="flex gap-3 rounded-control border border-danger/60 bg-danger/10 p-3">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-danger" />
          <p>
            <strong>{LIVE_TEXTS.noLights}</strong> {LIVE_TEXTS.noLightsHelp}{' '}
            <Link to="/settings" className="font-semibold text-accent underline">
              Open Settings
            </Link>
          </p>
        </div>
      )}
      {result?.kind === 'refused' && (
        <p role="alert" className="text-caption text-danger">
          {LIVE_TEXTS.testRefused(flagLabel(result.flag), result.reason, result.played)}
        </p>
      )}
      {(result?.kind === 'sent' || result?.kind === 'sending') && (
        <p role="status" className="text-caption text-ink-300">
          {result.kind === 'sent'
            ? LIVE_TEXTS.testSent(flagLabel(result.flag))
            : LIVE_TEXTS.testSending(flagLabel(result.flag))}
        </p>
      )}
    </div>
  );
}
