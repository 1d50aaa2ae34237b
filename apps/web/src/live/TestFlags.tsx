import { EFFECT_FLAGS } from '@flaglight/core';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../ui/button-styles';
import { flagLabel, flagSwatch } from './display-flag';
import { LIVE_TEXTS } from './live-texts';
import { useTestFlag } from './use-test-flag';

/**
 * SPEC §2: a button per flag plays it on the lights now, and on the lights of the account's online
 * companions (`POST /api/devices/test`); with neither, SPEC §8's alert.
 */
export function TestFlags() {
  const { test, result } = useTestFlag();

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
