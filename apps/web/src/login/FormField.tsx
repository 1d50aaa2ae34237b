import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

export const INPUT_CLASS =
  'min-h-11 w-full rounded-control border border-ink-600 bg-ink-900 px-4 py-2.5 text-ink-100 ' +
  'placeholder:text-ink-400 focus-visible:border-accent focus-visible:outline-2 ' +
  'focus-visible:outline-offset-2 focus-visible:outline-accent disabled:opacity-60';

export const LINK_CLASS =
  'rounded-sm font-semibold text-accent underline-offset-4 hover:underline focus-visible:outline-2 ' +
  'focus-visible:outline-offset-2 focus-visible:outline-accent';

/** A link standing on its own line (not inside a sentence) is a 44 px tap target on a phone. */
export const LINK_TARGET_CLASS = 'inline-flex min-h-11 items-center';

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
}

/** A labelled input; the hint is read with it. */
export const FormField = forwardRef<HTMLInputElement, FormFieldProps>(function FormField(
  { label, hint, id, ...input },
  ref,
) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="font-semibold text-ink-100">
        {label}
      </label>
      <input ref={ref} id={inputId} aria-describedby={hintId} className={INPUT_CLASS} {...input} />
      {hint && (
        <p id={hintId} className="text-caption text-ink-300">
          {hint}
        </p>
      )}
    </div>
  );
});

/** The one message a form shows after a submit: an error (alert) or a confirmation (status). */
export function FormMessage({ kind, children }: { kind: 'error' | 'success'; children: ReactNode }) {
  return kind === 'error' ? (
    <p role="alert" className="rounded-control border border-danger/50 bg-danger/10 px-4 py-3 text-danger">
      {children}
    </p>
  ) : (
    <p role="status" className="rounded-control border border-accent/50 bg-accent/10 px-4 py-3 text-ink-100">
      {children}
    </p>
  );
}

export const CARD_CLASS = 'rounded-card border border-ink-600 bg-ink-800 p-6 shadow-card md:p-8';
