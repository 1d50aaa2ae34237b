import { EFFECT_FLAGS, type EffectFlag } from '@flaglight/core';
import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useCompanionDevices } from '../companion/companion-store';
import { testCompanions } from '../devices/device-api';
import { useLights } from '../lights/lights-context';
import { buttonClass } from '../ui/button-styles';
import { flagLabel, flagSwatch } from './display-flag';
import { LIVE_TEXTS } from './live-texts';

/**
 * SPEC §2: a button per flag plays it on the lights now, and on the lights of the account's online
 * companions (`POST /api/devices/test`); with neither, SPEC §8's alert.
 */
export function TestFlags() {
  const lights = useLights();
  const { user } = useAuth();
  const companionOnline = useCompanionDevices(user?.email)?.some((device) => device.online) ?? false;
  const [result, setResult] = useState<{ ok: true; flag: EffectFlag } | { ok: false } | null>(null);

  const test = (flag: EffectFlag) => {
    const played = lights.playTest(flag);
    // The companion plays its own lights; a failure to reach it leaves the browser's test as it is.
    if (companionOnline) testCompanions(flag).catch(() => undefined);
    setResult(played || companionOnline ? { ok: true, flag } : { ok: false });
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
      {result?.ok === false && (
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
      {result?.ok === true && (
        <p role="status" className="text-caption text-ink-300">
          Sent {flagLabel(result.flag)} to your lights.
        </p>
      )}
    </div>
  );
}
