import {
  COUNTDOWN_REFRESH_MS,
  findNextRace,
  getCountdown,
  getNextSessionStart,
  type Countdown,
  type Race,
} from '@flaglight/core';
import { Timer } from 'lucide-react';
import { useEffect, useState } from 'react';

/** "2d 04:12:30", or "04:12:30" under a day. */
export function formatCountdownText({ hours, minutes, seconds }: Countdown): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const days = Math.floor(hours / 24);
  const clock = `${pad(hours % 24)}:${pad(minutes)}:${pad(seconds)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** The next session start: the schedule's when known, else the next hour or half hour (SPEC §2). */
export function nextSessionTarget(
  races: readonly Race[] | undefined,
  now: number,
): { label: string; startMs: number } {
  const race = races ? findNextRace(races, { now }) : null;
  const session = race?.sessions.find((s) => s.startMs > now);
  if (race && session) return { label: `${race.raceName} ${session.label}`, startMs: session.startMs };
  return { label: 'Next session', startMs: getNextSessionStart({ now }) };
}

/** SPEC §2: a countdown to the next session start, refreshed every 5 s. */
export function SessionCountdown({
  races,
  onTick,
}: {
  races: readonly Race[] | undefined;
  onTick?: () => void;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const handle = setInterval(() => {
      setNow(Date.now());
      onTick?.();
    }, COUNTDOWN_REFRESH_MS);
    return () => clearInterval(handle);
  }, [onTick]);
  const target = nextSessionTarget(races, now);
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-ink-300">
      <Timer aria-hidden="true" className="size-4 text-accent" />
      <span>{target.label} starts in</span>
      <span data-testid="session-countdown" className="font-mono text-ink-100 tabular-nums">
        {formatCountdownText(getCountdown(target.startMs, { now }))}
      </span>
    </p>
  );
}
