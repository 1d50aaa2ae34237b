import type { LookColor } from '@flaglight/core';
import { useId } from 'react';
import { colorToCss, colorToHex, hexToColor, LOOK_COLOR_CHOICES, sameColor } from './look-color';
import { LOOKS_TEXTS as T } from './looks-texts';

/**
 * A look's colour: SPEC's preset colours as a group of swatches (one Tab stop, arrows move, as any
 * radio group) and a colour picker for any other; its error, if the contract refuses it, below.
 */
export function ColorField({
  flagName,
  color,
  onChange,
  error,
}: {
  flagName: string;
  color: LookColor;
  onChange: (color: LookColor) => void;
  error?: string;
}) {
  const name = useId();
  const pickerId = useId();
  const errorId = useId();
  const isPreset = LOOK_COLOR_CHOICES.some((choice) => sameColor(choice, color));
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 font-semibold text-ink-100">
        {T.colour}: <span className="font-normal text-ink-300">{color.name}</span>
      </legend>
      <div className="flex flex-wrap items-center gap-2">
        {LOOK_COLOR_CHOICES.map((choice) => (
          <label key={choice.name} className="relative inline-flex size-11 cursor-pointer">
            <input
              type="radio"
              name={name}
              className="peer sr-only"
              checked={sameColor(choice, color)}
              onChange={() => onChange(choice)}
              aria-label={`${flagName} colour ${choice.name}`}
            />
            <span
              aria-hidden="true"
              className="size-11 rounded-full border-2 border-ink-600 peer-checked:border-ink-100 peer-checked:ring-2 peer-checked:ring-accent peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent"
              style={{ backgroundColor: colorToCss(choice) }}
            />
          </label>
        ))}
        <label htmlFor={pickerId} className="flex min-h-11 items-center gap-2 text-ink-300">
          <input
            id={pickerId}
            type="color"
            value={colorToHex(color)}
            onChange={(event) => {
              const picked = hexToColor(event.target.value);
              if (picked) onChange(picked);
            }}
            className={`h-11 w-14 cursor-pointer rounded-control border-2 bg-ink-900 p-1 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
              isPreset ? 'border-ink-600' : 'border-ink-100'
            }`}
            aria-label={`${flagName}: ${T.pickColour}`}
          />
          <span className="text-caption">{T.pickColour}</span>
        </label>
      </div>
      {error && (
        <p id={errorId} className="text-caption text-danger">
          {T.fieldError(T.colour, error)}
        </p>
      )}
    </fieldset>
  );
}
