import { LOOK_BRIGHTNESS_MAX, LOOK_BRIGHTNESS_MIN, type EffectFlag } from '@flaglight/core';
import { useState } from 'react';
import { useTestFlag } from '../../live/use-test-flag';
import { UnsavedChangeNotice } from '../UnsavedChangeNotice';
import { FlagLookEditor } from './FlagLookEditor';
import { FollowSettings } from './FollowSettings';
import { LookPresets } from './LookPresets';
import { FLAG_ORDER, LOOKS_TEXTS as T } from './looks-texts';
import { NoFlashingSwitch } from './NoFlashingSwitch';
import { NumberField } from './NumberField';
import { ScreenPreview } from './ScreenPreview';
import { SamplePlayer, TryButton, TryResultLine } from './TryPanel';
import { useLookSet } from './use-look-set';
import { useSample } from './use-sample';

const HEADING = 'text-lg font-semibold text-ink-100';

/**
 * Settings → Flags & effects: how each flag looks (or leaves the lights alone), the presets, no
 * flashing and the brightness cap, and when the lights follow. Every change the contract takes is
 * saved with the account; what it refuses is marked beside the field and not sent.
 */
export function FlagsAndEffectsSection() {
  const editor = useLookSet();
  const { looks, errors } = editor;
  const { test, result } = useTestFlag();
  const sample = useSample(test);
  // Where the latest Try was pressed: its result shows there.
  const [triedFrom, setTriedFrom] = useState<EffectFlag | 'sample' | null>(null);
  const tryFlag = (flag: EffectFlag) => {
    sample.cancel();
    setTriedFrom(flag);
    test(flag);
  };
  return (
    <div className="flex flex-col gap-8">
      <p className="text-ink-300">{T.intro}</p>
      <UnsavedChangeNotice area="looks" />
      <section aria-labelledby="looks-presets-heading" className="flex flex-col gap-4">
        <h3 id="looks-presets-heading" className={HEADING}>
          {T.presets}
        </h3>
        <LookPresets looks={looks} onChoose={editor.setLooks} />
      </section>
      <div className="flex flex-col gap-4">
        <NoFlashingSwitch checked={looks.noFlashing} onCheckedChange={editor.setNoFlashing} />
        <NumberField
          label={T.cap}
          value={looks.brightnessCap}
          min={LOOK_BRIGHTNESS_MIN}
          max={LOOK_BRIGHTNESS_MAX}
          hint={T.capHelp}
          onChange={editor.setBrightnessCap}
          error={errors.brightnessCap}
        />
      </div>
      <section aria-labelledby="looks-preview-heading" className="flex flex-col gap-4">
        <h3 id="looks-preview-heading" className={HEADING}>
          {T.preview}
        </h3>
        <ScreenPreview />
        <SamplePlayer
          sample={{
            ...sample,
            start: () => {
              setTriedFrom('sample');
              sample.start();
            },
          }}
          result={triedFrom === 'sample' ? result : null}
        />
      </section>
      <div className="flex flex-col gap-4">
        {!editor.saved && (
          <p
            role="alert"
            className="rounded-control border border-danger/50 bg-danger/10 px-4 py-3 text-ink-100"
          >
            {T.notSaved}
          </p>
        )}
        <div data-testid="looks-flag-grid" className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {FLAG_ORDER.map((flag) => (
            <FlagLookEditor
              key={flag}
              flag={flag}
              look={looks.flags[flag]}
              errors={errors}
              onChange={(look) => editor.setFlag(flag, look)}
              tryButton={<TryButton flag={flag} onTry={tryFlag} />}
              tryResult={triedFrom === flag ? <TryResultLine result={result} /> : null}
            />
          ))}
        </div>
      </div>
      <section aria-labelledby="follow-heading" className="flex flex-col gap-4">
        <h3 id="follow-heading" className={HEADING}>
          When the lights follow
        </h3>
        <FollowSettings />
      </section>
    </div>
  );
}
