import {
  describeFlagPeriods,
  describeFlagTimeline,
  findFlagPeriod,
  formatTimelineTime,
  TIMELINE_STATE_LABELS,
  type FlagTimeline,
} from '@flaglight/core';
import { useId, type MouseEvent } from 'react';
import { percentOf, TIMELINE_SWATCHES } from './timeline-styles';

export interface FlagTimelineStripProps {
  timeline: FlagTimeline;
  /** Where the session is now (ms after its start): a marker on the strip. */
  positionMs?: number | null;
  /** Names the strip for screen readers, before its periods. */
  label?: string;
  /** Makes each period a button that moves there (a replay); without it the strip is a picture. */
  onSeek?: (positionMs: number) => void;
  /** A slimmer strip for lists. */
  compact?: boolean;
}

function positionText(timeline: FlagTimeline, positionMs: number): string {
  const period = findFlagPeriod(timeline, positionMs);
  const state = period ? `, ${TIMELINE_STATE_LABELS[period.state]}` : '';
  return `Now at ${formatTimelineTime(positionMs)}${state}.`;
}

/**
 * A session in one picture: a horizontal strip coloured by flag period, local yellows as thin
 * marks along its foot, and the current position as a line. Its text alternative lists the same
 * periods the core derived.
 */
export function FlagTimelineStrip({
  timeline,
  positionMs = null,
  label = 'Flag timeline',
  onSeek,
  compact = false,
}: FlagTimelineStripProps) {
  const { lengthMs } = timeline;
  const position = positionMs === null ? null : Math.min(Math.max(0, positionMs), lengthMs);
  const description = describeFlagTimeline(timeline);
  const where = position === null ? '' : ` ${positionText(timeline, position)}`;
  const periodLabels = describeFlagPeriods(timeline);
  const height = compact ? 'h-3' : 'h-6';
  const descriptionId = useId();

  const seekTo = (from: number, to: number) => (event: MouseEvent<HTMLButtonElement>) => {
    if (!onSeek) return;
    // A keyboard press (detail 0) goes to the period's start; a click to the point clicked.
    const rect = event.currentTarget.getBoundingClientRect();
    const share = event.detail > 0 && rect.width > 0 ? (event.clientX - rect.left) / rect.width : 0;
    onSeek(Math.round(from + Math.min(1, Math.max(0, share)) * (to - from)));
  };

  const overlays = (
    <>
      {timeline.sectorMarks.map((mark) => (
        <span
          key={`${mark.from}-${mark.sectors.join('.')}`}
          aria-hidden="true"
          data-testid="timeline-sector-mark"
          className="pointer-events-none absolute bottom-0 h-1 min-w-0.5 bg-flag-yellow ring-1 ring-ink-950/60"
          style={{ left: percentOf(mark.from, lengthMs), width: percentOf(mark.to - mark.from, lengthMs) }}
        />
      ))}
      {position !== null && (
        <span
          aria-hidden="true"
          data-testid="timeline-position"
          className="pointer-events-none absolute -top-1 -bottom-1 w-0.5 -translate-x-1/2 rounded-full bg-ink-100 shadow-[0_0_0_1px_var(--color-ink-950)]"
          style={{ left: percentOf(position, lengthMs) }}
        />
      )}
    </>
  );

  const rounded = (i: number) =>
    `${i === 0 ? 'rounded-l-full' : ''} ${i === timeline.periods.length - 1 ? 'rounded-r-full' : ''}`;

  if (onSeek) {
    return (
      <>
        <div
          role="group"
          aria-label={`${label}.${where}`}
          aria-describedby={descriptionId}
          className={`relative flex ${height} w-full`}
        >
          {timeline.periods.map((period, i) => (
            <button
              key={period.from}
              type="button"
              data-state={period.state}
              aria-label={`Go to ${periodLabels[i] ?? ''}`}
              title={periodLabels[i]}
              onClick={seekTo(period.from, period.to)}
              className={`${TIMELINE_SWATCHES[period.state]} ${rounded(i)} h-full min-w-0.5 cursor-pointer focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent`}
              style={{ width: percentOf(period.to - period.from, lengthMs) }}
            />
          ))}
          {overlays}
        </div>
        <p id={descriptionId} className="sr-only">
          {description}
        </p>
      </>
    );
  }

  return (
    <div role="img" aria-label={`${label}: ${description}${where}`} className={`relative ${height} w-full`}>
      <div className="flex h-full w-full overflow-hidden rounded-full">
        {timeline.periods.map((period, i) => (
          <span
            key={period.from}
            data-state={period.state}
            title={periodLabels[i]}
            className={`${TIMELINE_SWATCHES[period.state]} h-full min-w-0.5`}
            style={{ width: percentOf(period.to - period.from, lengthMs) }}
          />
        ))}
      </div>
      {overlays}
    </div>
  );
}
