// A stylised circuit (not a real one) drawn once; a glowing car laps it by CSS animation.
const TRACK =
  'M70 150 C40 150 30 120 50 100 L120 40 C135 27 160 30 170 45 L200 90 C210 105 230 108 245 98 L300 60 C320 47 345 55 350 78 L360 130 C364 155 345 172 320 170 L180 162 C160 161 150 170 140 178 L120 190 C100 200 80 190 80 170 Z';

/** The animated race-track graphic of the landing page; decorative, and still under reduced motion. */
export function RaceTrack({ className = '' }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 400 220"
      fill="none"
      className={`race-track ${className}`}
      data-testid="race-track"
    >
      <path d={TRACK} stroke="var(--color-ink-600)" strokeWidth="14" strokeLinejoin="round" />
      <path
        d={TRACK}
        stroke="var(--color-ink-900)"
        strokeWidth="2"
        strokeDasharray="6 10"
        strokeLinejoin="round"
      />
      {/* Sector 2 under a yellow flag, like the lights would show. */}
      <path
        d={TRACK}
        pathLength={100}
        stroke="var(--color-flag-yellow)"
        strokeOpacity="0.55"
        strokeWidth="14"
        strokeDasharray="14 86"
        strokeDashoffset="-38"
        strokeLinejoin="round"
      />
      <path
        d={TRACK}
        pathLength={100}
        stroke="var(--color-accent)"
        strokeWidth="6"
        strokeLinecap="round"
        strokeDasharray="4 96"
        className="race-track-car"
      />
      <rect x="62" y="140" width="16" height="20" fill="url(#flaglight-chequer)" />
      <defs>
        <pattern id="flaglight-chequer" width="8" height="8" patternUnits="userSpaceOnUse">
          <rect width="8" height="8" fill="var(--color-flag-checkered)" />
          <rect width="4" height="4" fill="var(--color-black)" />
          <rect x="4" y="4" width="4" height="4" fill="var(--color-black)" />
        </pattern>
      </defs>
    </svg>
  );
}
