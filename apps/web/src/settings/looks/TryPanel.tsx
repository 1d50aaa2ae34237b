import type { EffectFlag } from '@flaglight/core';
import { Play, Square } from 'lucide-react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/auth-context';
import { useCompanionList } from '../../companion/use-companions';
import { flagLabel } from '../../live/display-flag';
import { LIVE_TEXTS } from '../../live/live-texts';
import type { TestResult } from '../../live/use-test-flag';
import { buttonClass } from '../../ui/button-styles';
import { useLocalSettings } from '../local-settings';
import { FLAG_NAMES, LOOKS_TEXTS as T } from './looks-texts';
import { SAMPLE_STEPS, type SampleState } from './use-sample';

/** "Try" beside a flag's name: plays its look now on the fan's lights and the screen. */
export function TryButton({ flag, onTry }: { flag: EffectFlag; onTry: (flag: EffectFlag) => void }) {
  return (
    <button
      type="button"
      className={buttonClass('secondary', 'sm', 'shrink-0')}
      aria-label={T.tryLabel(FLAG_NAMES[flag])}
      onClick={() => onTry(flag)}
    >
      <Play aria-hidden="true" className="size-4" />
      {T.try}
    </button>
  );
}

/** What the latest Try did, in the words of the dashboard's "Test your lights". */
export function TryResultLine({ result }: { result: TestResult | null }) {
  const { user } = useAuth();
  const [settings] = useLocalSettings(user?.email);
  if (!result) return null;
  if (result.kind === 'none') {
    // The on-screen light played it (when it is used): only the smart lights are missing.
    const screenOnly = settings.screenLight;
    return (
      <p
        role={screenOnly ? 'status' : 'alert'}
        className={`text-caption ${screenOnly ? 'text-ink-300' : 'text-danger'}`}
      >
        {screenOnly ? T.tryScreenOnly : `${LIVE_TEXTS.noLights} ${T.tryNoLights}`}{' '}
        <Link to="/dashboard" className="font-semibold text-accent underline">
          {T.openDashboard}
        </Link>
      </p>
    );
  }
  if (result.kind === 'refused')
    return (
      <p role="alert" className="text-caption text-danger">
        {LIVE_TEXTS.testRefused(flagLabel(result.flag), result.reason, result.played)}
      </p>
    );
  return (
    <p role="status" className="text-caption text-ink-300">
      {result.kind === 'sent'
        ? LIVE_TEXTS.testSent(flagLabel(result.flag))
        : LIVE_TEXTS.testSending(flagLabel(result.flag))}
    </p>
  );
}

/** "Play a sample": the short race through Try's path, with its progress and Stop. */
export function SamplePlayer({ sample, result }: { sample: SampleState; result: TestResult | null }) {
  // The account's companions are read here too, so a Try reaches them from Settings.
  useCompanionList();
  const running = sample.step !== null;
  const step = sample.step ?? 0;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-ink-300">{T.sampleHelp}</p>
      <div className="flex flex-wrap items-center gap-3">
        {running ? (
          <button type="button" className={buttonClass('secondary', 'sm')} onClick={sample.cancel}>
            <Square aria-hidden="true" className="size-4" />
            {T.stopSample}
          </button>
        ) : (
          <button type="button" className={buttonClass('primary', 'sm')} onClick={sample.start}>
            <Play aria-hidden="true" className="size-4" />
            {T.playSample}
          </button>
        )}
      </div>
      {running && (
        <div className="flex flex-col gap-2">
          <p role="status" className="text-ink-100">
            {T.sampleStep(step + 1, SAMPLE_STEPS.length, FLAG_NAMES[SAMPLE_STEPS[step]!.flag])}
          </p>
          <progress
            className="h-2 w-full accent-accent"
            max={SAMPLE_STEPS.length}
            value={step + 1}
            aria-label={T.sampleProgress}
          />
        </div>
      )}
      <TryResultLine result={result} />
    </div>
  );
}
