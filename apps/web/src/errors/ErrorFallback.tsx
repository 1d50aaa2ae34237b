import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { buttonClass } from '../ui/button-styles';

interface ErrorFallbackProps {
  onTryAgain: () => void;
  onGoHome: () => void;
}

export function ErrorFallback({ onTryAgain, onGoHome }: ErrorFallbackProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section
      role="alert"
      className="mx-auto flex max-w-prose flex-col items-center gap-6 px-gutter py-24 text-center"
    >
      <span className="grid size-16 place-items-center rounded-full bg-flag-yellow/15 text-flag-yellow">
        <TriangleAlert aria-hidden="true" className="size-8" />
      </span>
      <h1 ref={headingRef} tabIndex={-1} className="font-display text-title font-bold uppercase italic">
        Something went wrong
      </h1>
      <p className="text-lead text-ink-300">
        This screen hit an unexpected problem. Try again, or head back to the start.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <button type="button" className={buttonClass('primary')} onClick={onTryAgain}>
          Try Again
        </button>
        <button type="button" className={buttonClass('secondary')} onClick={onGoHome}>
          Go Home
        </button>
      </div>
    </section>
  );
}
