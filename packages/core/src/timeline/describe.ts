import type { FlagTimeline, TimelineState } from './flag-timeline.js';

/** How each state is named in text alternatives, e-mails and legends. */
export const TIMELINE_STATE_LABELS: Readonly<Record<TimelineState, string>> = {
  green: 'Green',
  yellow: 'Yellow',
  safety_car: 'Safety car',
  vsc: 'Virtual safety car',
  red: 'Red flag',
  checkered: 'Chequered',
};

/** "14:32" or, from an hour on, "1:05:09": ms after the session's start, rounded down to the second. */
export function formatTimelineTime(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** One line per period: "Safety car 14:32–21:10". */
export function describeFlagPeriods(timeline: FlagTimeline): string[] {
  return timeline.periods.map(
    (p) => `${TIMELINE_STATE_LABELS[p.state]} ${formatTimelineTime(p.from)}–${formatTimelineTime(p.to)}`,
  );
}

/** One line per local yellow: "Yellow in sector 7 at 32:05". */
export function describeSectorMarks(timeline: FlagTimeline): string[] {
  return timeline.sectorMarks.map(
    (m) =>
      `Yellow in ${m.sectors.length === 1 ? 'sector' : 'sectors'} ${m.sectors.join(', ')} at ${formatTimelineTime(m.from)}`,
  );
}

/**
 * The timeline as one sentence for screen readers and plain-text e-mail: "Green 0:00–14:32, Safety
 * car 14:32–21:10. Local yellows: Yellow in sector 7 at 32:05."
 */
export function describeFlagTimeline(timeline: FlagTimeline): string {
  const periods = describeFlagPeriods(timeline);
  const marks = describeSectorMarks(timeline);
  const text = periods.length === 0 ? 'No flags yet' : periods.join(', ');
  return marks.length === 0 ? `${text}.` : `${text}. Local yellows: ${marks.join(', ')}.`;
}
