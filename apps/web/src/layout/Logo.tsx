interface LogoProps {
  /** Hide the word and keep the mark (tight spaces). */
  markOnly?: boolean;
  className?: string;
}

export function Logo({ markOnly = false, className = '' }: LogoProps) {
  return (
    <span role="img" aria-label="Flaglight" className={`inline-flex items-center gap-2.5 ${className}`}>
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
        <rect width="32" height="32" rx="7" className="fill-ink-800" />
        <path d="M8 5v23" className="stroke-ink-100" strokeWidth="2.4" strokeLinecap="round" />
        <path d="M9.5 6h16l-3.5 5.5 3.5 5.5h-16z" className="fill-flag-yellow" />
        <circle cx="9" cy="27.5" r="2.5" className="fill-flag-green" />
      </svg>
      {!markOnly && (
        <span className="font-display text-xl font-bold tracking-tight whitespace-nowrap uppercase italic sm:text-2xl">
          Flag<span className="text-flag-yellow">light</span>
        </span>
      )}
    </span>
  );
}
