import {
  FLAG_LOOK_HOLD_MS,
  getMinimumEffectMs,
  LOOK_BRIGHTNESS_MAX,
  LOOK_BRIGHTNESS_MIN,
  LOOK_EFFECT_KINDS,
  LOOK_PULSE_MAX_COUNT,
  LOOK_PULSE_MIN_COUNT,
  type EffectFlag,
  type LookEffect,
  type LookEffectKind,
  type ShowLook,
} from '@flaglight/core';
import { useId } from 'react';
import { INPUT_CLASS } from '../../login/FormField';
import { secondsToMs, withEffect, type LookErrors } from './look-draft';
import { EFFECT_NAMES, FLAG_NAMES, LOOKS_TEXTS as T } from './looks-texts';
import { NumberField } from './NumberField';

function effectOf(kind: LookEffectKind, current: LookEffect): LookEffect {
  if (kind !== 'pulse') return { kind };
  return { kind, count: current.kind === 'pulse' ? current.count : 3 };
}

/** A look's effect, how long it runs, and the brightness it settles at (not for the fastest lap). */
export function EffectFields({
  flag,
  look,
  errors,
  onChange,
}: {
  flag: EffectFlag;
  look: ShowLook;
  errors: LookErrors;
  onChange: (look: ShowLook) => void;
}) {
  const selectId = useId();
  const name = FLAG_NAMES[flag];
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const minimum = seconds(getMinimumEffectMs(flag, look.effect));
  const hold = seconds(FLAG_LOOK_HOLD_MS[flag]);
  const error = (field: string) => errors[`${flag}.${field}`];
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor={selectId} className="font-semibold text-ink-100">
          {T.effect}
        </label>
        <select
          id={selectId}
          aria-label={`${name} ${T.effect.toLowerCase()}`}
          value={look.effect.kind}
          onChange={(event) =>
            onChange(withEffect(flag, look, effectOf(event.target.value as LookEffectKind, look.effect)))
          }
          className={`${INPUT_CLASS} max-w-48`}
        >
          {LOOK_EFFECT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {EFFECT_NAMES[kind]}
            </option>
          ))}
        </select>
      </div>
      {look.effect.kind === 'pulse' && (
        <NumberField
          label={T.pulses}
          accessibleLabel={`${name} ${T.pulses.toLowerCase()}`}
          value={look.effect.count}
          min={LOOK_PULSE_MIN_COUNT}
          max={LOOK_PULSE_MAX_COUNT}
          onChange={(count) =>
            onChange(
              Number.isInteger(count)
                ? withEffect(flag, look, { kind: 'pulse', count })
                : {
                    ...look,
                    effect: { kind: 'pulse', count },
                  },
            )
          }
          error={error('effect.count')}
        />
      )}
      <NumberField
        label={T.effectLength}
        accessibleLabel={`${name} effect length in seconds`}
        value={Number.isFinite(look.effectMs) ? look.effectMs / 1000 : Number.NaN}
        min={minimum}
        max={hold}
        step={0.1}
        hint={T.effectLengthHint(minimum, hold)}
        onChange={(value) => onChange({ ...look, effectMs: secondsToMs(value) })}
        error={error('effectMs')}
      />
      {flag === 'fastest_lap' ? (
        <p className="self-end text-caption text-ink-300">{T.settleMomentary}</p>
      ) : (
        <NumberField
          label={T.settle}
          accessibleLabel={`${name} settle brightness in percent`}
          value={look.settleBrightness}
          min={LOOK_BRIGHTNESS_MIN}
          max={LOOK_BRIGHTNESS_MAX}
          onChange={(settleBrightness) => onChange({ ...look, settleBrightness })}
          error={error('settleBrightness')}
        />
      )}
    </div>
  );
}
