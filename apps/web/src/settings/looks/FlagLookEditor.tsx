import {
  LOOK_BRIGHTNESS_MAX,
  LOOK_BRIGHTNESS_MIN,
  TRACKSIDE,
  type EffectFlag,
  type FlagLook,
  type ShowLook,
} from '@flaglight/core';
import { useId, useRef, type ReactNode } from 'react';
import { ColorField } from './ColorField';
import { EffectFields } from './EffectFields';
import { colorToCss } from './look-color';
import type { LookErrors } from './look-draft';
import { FLAG_NAMES, FLAG_WHEN, LOOKS_TEXTS as T } from './looks-texts';
import { NumberField } from './NumberField';

/** Trackside's look for a flag: what "show" starts from when the flag was left alone. */
function tracksideLook(flag: EffectFlag): ShowLook {
  const look = TRACKSIDE.flags[flag];
  return look.kind === 'show' ? look : (TRACKSIDE.flags.green as ShowLook);
}

/** One flag's card: leave it alone, or its colour, brightness and effect; `tryButton` beside its name. */
export function FlagLookEditor({
  flag,
  look,
  errors,
  onChange,
  tryButton,
  tryResult,
}: {
  flag: EffectFlag;
  look: FlagLook;
  errors: LookErrors;
  onChange: (look: FlagLook) => void;
  tryButton: ReactNode;
  /** What the latest Try of this flag did. */
  tryResult?: ReactNode;
}) {
  const headingId = useId();
  const leaveId = useId();
  const name = FLAG_NAMES[flag];
  // The look a fan had before "leave", so unticking it brings that look back.
  const lastShown = useRef<ShowLook>(look.kind === 'show' ? look : tracksideLook(flag));
  if (look.kind === 'show') lastShown.current = look;

  return (
    <section
      aria-labelledby={headingId}
      data-flag={flag}
      className="flex min-w-0 flex-col gap-4 rounded-control border border-ink-600 bg-ink-900/40 p-4"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span
            aria-hidden="true"
            className="mt-1 size-5 shrink-0 rounded-full border border-ink-600"
            style={{
              backgroundColor: look.kind === 'show' ? colorToCss(look.color, look.brightness) : 'transparent',
            }}
          />
          <div className="flex min-w-0 flex-col">
            <h3 id={headingId} className="text-lg font-semibold">
              {name}
            </h3>
            <p className="text-caption text-ink-300">{FLAG_WHEN[flag]}</p>
          </div>
        </div>
        {tryButton}
      </div>
      {tryResult}
      <label htmlFor={leaveId} className="flex min-h-11 cursor-pointer items-center gap-3">
        <input
          id={leaveId}
          type="checkbox"
          className="size-5 accent-accent"
          checked={look.kind === 'leave'}
          onChange={(event) => onChange(event.target.checked ? { kind: 'leave' } : lastShown.current)}
          aria-label={`${name}: ${T.leave}`}
        />
        <span>{T.leave}</span>
      </label>
      {look.kind === 'leave' ? (
        <p className="text-ink-300">{T.leaveNote}</p>
      ) : (
        <>
          <ColorField
            flagName={name}
            color={look.color}
            onChange={(color) => onChange({ ...look, color })}
            error={errors[`${flag}.color`]}
          />
          <NumberField
            label={T.brightness}
            accessibleLabel={`${name} brightness in percent`}
            value={look.brightness}
            min={LOOK_BRIGHTNESS_MIN}
            max={LOOK_BRIGHTNESS_MAX}
            onChange={(brightness) => onChange({ ...look, brightness })}
            error={errors[`${flag}.brightness`]}
          />
          <EffectFields flag={flag} look={look} errors={errors} onChange={onChange} />
        </>
      )}
    </section>
  );
}
