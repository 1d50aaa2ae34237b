import {
  findNextRace,
  formatSessionTime,
  groupSeason,
  SESSION_COLORS,
  type ScheduledRace,
  type SessionKind,
} from '@flaglight/core';
import { AlertTriangle, Info } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { useSchedule } from './schedule-api';
import { SCHEDULE_TEXTS, SESSION_COLOR_VALUES, SESSION_KIND_LABELS } from './schedule-texts';

function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const LEGEND: SessionKind[] = ['practice', 'sprint-qualifying', 'sprint', 'qualifying', 'race'];

function RaceItem({ race, isNext, timeZone }: { race: ScheduledRace; isNext: boolean; timeZone: string }) {
  const headingId = `race-${race.season}-${race.round}`;
  return (
    <li
      aria-labelledby={headingId}
      data-next-race={isNext || undefined}
      className={`flex flex-col gap-3 rounded-control border p-4 ${
        isNext ? 'border-accent bg-ink-700' : 'border-ink-600 bg-ink-900'
      }`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col">
          <span className="text-caption font-semibold tracking-wide text-ink-300 uppercase">
            Round {race.round}
          </span>
          <h3 id={headingId} className="font-display text-xl font-bold tracking-tight uppercase italic">
            {race.raceName}
          </h3>
          <span className="text-ink-300">
            {race.circuitName}, {race.locality}, {race.country}
          </span>
        </div>
        {isNext && (
          <span className="rounded-full bg-accent px-3 py-1 text-caption font-bold text-on-accent uppercase">
            {SCHEDULE_TEXTS.nextRace}
          </span>
        )}
      </div>
      <ul className="grid gap-1.5">
        {race.sessions.map((session) => (
          <li
            key={session.key}
            data-session-kind={session.kind}
            className="flex items-baseline justify-between gap-3 border-l-4 pl-2.5"
            style={{ borderColor: SESSION_COLOR_VALUES[session.color] }}
          >
            <span className="font-semibold">{session.label}</span>
            <time
              className="text-right text-ink-300 tabular-nums"
              dateTime={new Date(session.startMs).toISOString()}
            >
              {formatSessionTime(session.startMs, { timeZone })}
            </time>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The Formula 1 Calendar (SPEC §2): rounds, circuits and session times in the viewer's time zone. */
export function RaceScheduleBody({ now = Date.now }: { now?: () => number }) {
  const schedule = useSchedule();
  const timeZone = useMemo(viewerTimeZone, []);
  const races = useMemo(() => (schedule.data ? groupSeason(schedule.data.races) : []), [schedule.data]);
  const nextRound = useMemo(
    () => (schedule.data ? (findNextRace(schedule.data.races, { now: now() })?.round ?? null) : null),
    [schedule.data, now],
  );
  const listRef = useRef<HTMLOListElement>(null);

  // Bring the next race into view inside the list, without moving the page.
  useEffect(() => {
    const list = listRef.current;
    const next = list?.querySelector<HTMLElement>('[data-next-race]');
    // The list is `relative`, so it is the item's offset parent: offsetTop is already within it.
    if (list && next) list.scrollTop = next.offsetTop;
  }, [nextRound, races.length]);

  if (schedule.isPending) {
    return (
      <p role="status" className="text-ink-300">
        {SCHEDULE_TEXTS.loading}
      </p>
    );
  }
  if (schedule.isError) {
    return (
      <div
        role="alert"
        className="flex flex-col gap-1 rounded-control border border-danger/60 bg-danger/10 p-4"
      >
        <p className="flex items-center gap-2 font-semibold">
          <AlertTriangle aria-hidden="true" className="size-5 text-danger" />
          {SCHEDULE_TEXTS.failed}
        </p>
        <p className="text-danger">
          {schedule.error instanceof Error ? schedule.error.message : String(schedule.error)}
        </p>
      </div>
    );
  }
  if (races.length === 0) {
    return <p className="text-ink-300">{SCHEDULE_TEXTS.empty}</p>;
  }
  return (
    <div className="flex flex-col gap-4">
      {schedule.data.fallback && (
        <p role="status" className="flex items-center gap-2 text-caption text-ink-300">
          <Info aria-hidden="true" className="size-4 text-accent" />
          {SCHEDULE_TEXTS.fallback}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-caption text-ink-300">
        <span>
          {schedule.data.season} season · times in your time zone ({timeZone})
        </span>
        <ul aria-label="Session colours" className="flex flex-wrap gap-x-3 gap-y-1">
          {LEGEND.map((kind) => (
            <li key={kind} className="inline-flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className="size-2.5 rounded-full"
                style={{ backgroundColor: SESSION_COLOR_VALUES[SESSION_COLORS[kind]] }}
              />
              {SESSION_KIND_LABELS[kind]}
            </li>
          ))}
        </ul>
      </div>
      <ol
        ref={listRef}
        aria-label={`${schedule.data.season} race calendar`}
        // Scrollable, so it takes focus for keyboard scrolling.
        tabIndex={0}
        className="relative flex max-h-[36rem] flex-col gap-3 overflow-y-auto pr-1"
      >
        {races.map((race) => (
          <RaceItem key={race.round} race={race} isNext={race.round === nextRound} timeZone={timeZone} />
        ))}
      </ol>
    </div>
  );
}
