import { useEffect, useState, type CSSProperties } from 'react';
import { FLAG_STYLES } from '../flags/flag-styles';
import { useReducedMotion } from '../ui/use-reduced-motion';

const CYCLE_MS = 2600;
// Skips the chequered flag in the loop so the preview reads as a race in progress.
const SEQUENCE = ['green', 'yellow', 'safety', 'vsc', 'vsc_ending', 'green', 'fastest_lap', 'red'] as const;

/** A decorative lamp cycling through the flags, showing what the product does to a room. */
export function FlagPanelPreview() {
  const reducedMotion = useReducedMotion();
  const [step, setStep] = useState(1);

  useEffect(() => {
    if (reducedMotion) return;
    const timer = window.setInterval(() => setStep((s) => (s + 1) % SEQUENCE.length), CYCLE_MS);
    return () => window.clearInterval(timer);
  }, [reducedMotion]);

  const state = SEQUENCE[step] ?? 'yellow';
  const flag = FLAG_STYLES.find((f) => f.state === state) ?? FLAG_STYLES[0]!;
  const lampStyle = { '--lamp': flag.color } as CSSProperties;

  return (
    <figure
      aria-hidden="true"
      style={lampStyle}
      className="relative isolate overflow-hidden rounded-card border border-ink-600 bg-ink-900 p-6 shadow-card sm:p-8"
    >
      <div className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(circle_at_50%_35%,color-mix(in_oklab,var(--lamp)_30%,transparent),transparent_65%)] transition-[background] duration-700" />
      <div className="flex items-center justify-between font-mono text-caption text-ink-300 uppercase">
        <span>Living room</span>
        <span className="flex items-center gap-2">
          <span className="size-2 rounded-full bg-flag-green motion-safe:animate-glow" />
          Live
        </span>
      </div>
      <div className="my-8 flex justify-center gap-5 sm:gap-7">
        {[0, 1, 2].map((i) => (
          <span
            key={i}
            className="size-16 rounded-full bg-(--lamp) shadow-[0_0_48px_12px_var(--lamp)] transition-[background-color,box-shadow] duration-500 sm:size-20"
          />
        ))}
      </div>
      <figcaption className="flex items-baseline justify-between gap-4 border-t border-ink-700 pt-4">
        <span className="font-display text-3xl font-bold uppercase italic">{flag.label}</span>
        <span className="font-mono text-caption whitespace-nowrap text-ink-300">3 lights</span>
      </figcaption>
    </figure>
  );
}
