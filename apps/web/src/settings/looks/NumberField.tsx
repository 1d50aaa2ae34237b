import { useId } from 'react';
import { INPUT_CLASS } from '../../login/FormField';
import { LOOKS_TEXTS as T } from './looks-texts';

/**
 * A labelled number box. An empty or half-typed box gives NaN, which the contract refuses with its
 * own words: the error shows below the box (and the box is marked invalid) until it is fixed.
 */
export function NumberField({
  label,
  accessibleLabel,
  value,
  onChange,
  min,
  max,
  step = 1,
  hint,
  error,
}: {
  label: string;
  /** The label a screen reader hears, when the visible one needs its flag's name. */
  accessibleLabel?: string;
  value: number;
  onChange: (value: number) => void;
  min: number;
  max: number;
  step?: number;
  hint?: string;
  error?: string;
}) {
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  const described = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="font-semibold text-ink-100">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={Number.isFinite(value) ? value : ''}
        onChange={(event) => onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))}
        aria-label={accessibleLabel}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={`${INPUT_CLASS} max-w-36 ${error ? 'border-danger' : ''}`}
      />
      {hint && (
        <p id={hintId} className="text-caption text-ink-300">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-caption text-danger">
          {T.fieldError(label, error)}
        </p>
      )}
    </div>
  );
}
