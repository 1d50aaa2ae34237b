import {
  deriveFlagTimeline,
  describeFlagPeriods,
  describeSectorMarks,
  type FlagEvent,
  type FlagTimeline,
  type TimelineChange,
  type TimelineState,
} from '@flaglight/core';

/** The web app's flag colours (styles.css), written out: e-mail clients know no CSS variables. */
export const MAIL_TIMELINE_COLORS: Readonly<Record<TimelineState, string>> = {
  green: '#22e07a',
  yellow: '#ffd60a',
  safety_car: '#ffb020',
  vsc: '#ff9100',
  red: '#ff3b3b',
  checkered: '#f5f6fa',
};

/** A period too short to see still gets a sliver, so none goes missing from the bar. */
const MIN_CELL_PERCENT = 0.5;

/**
 * The timeline of a followed session from its stream's flag events, from the session's start (or
 * its first event) to `now`; null when there is nothing to draw.
 */
export function timelineFromEvents(
  events: readonly FlagEvent[],
  window: { start: number | null; now: number },
): FlagTimeline | null {
  const changes: TimelineChange[] = events.flatMap((event) => {
    const at = Date.parse(event.data.cause.date) || Date.parse(event.data.emittedAt);
    if (!Number.isFinite(at)) return [];
    return [
      {
        at,
        state: event.data.state,
        activeSectors: event.data.activeSectors,
        ...(event.data.safetyCar === undefined ? {} : { safetyCar: event.data.safetyCar }),
        cause: event.data.cause,
      },
    ];
  });
  if (changes.length === 0) return null;
  const first = Math.min(...changes.map((change) => change.at));
  const start = window.start !== null && window.start <= first ? window.start : first;
  if (window.now <= start) return null;
  return deriveFlagTimeline(changes, { start, end: window.now });
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * The timeline as e-mail clients draw it: one table row of coloured cells (bgcolor and inline
 * styles, no images, no classes), then the periods as a list beside a colour swatch each.
 */
export function renderTimelineHtml(timeline: FlagTimeline): string {
  const length = Math.max(1, timeline.lengthMs);
  const labels = describeFlagPeriods(timeline);
  const cells = timeline.periods
    .map((period, i) => {
      const percent = Math.max(MIN_CELL_PERCENT, ((period.to - period.from) / length) * 100).toFixed(2);
      const color = MAIL_TIMELINE_COLORS[period.state];
      return `<td width="${percent}%" bgcolor="${color}" title="${escapeHtml(labels[i] ?? '')}" style="width:${percent}%;height:18px;background-color:${color};font-size:0;line-height:0;">&nbsp;</td>`;
    })
    .join('');
  const rows = timeline.periods
    .map((period, i) => {
      const color = MAIL_TIMELINE_COLORS[period.state];
      return `<tr><td width="14" bgcolor="${color}" style="width:14px;background-color:${color};border:1px solid #999999;font-size:0;line-height:0;">&nbsp;</td><td style="padding:2px 8px;font-family:Arial,sans-serif;font-size:14px;">${escapeHtml(labels[i] ?? '')}</td></tr>`;
    })
    .join('');
  const marks = describeSectorMarks(timeline);
  const local =
    marks.length === 0
      ? ''
      : `<p style="font-family:Arial,sans-serif;font-size:13px;color:#555555;">Local yellows: ${escapeHtml(marks.join(', '))}.</p>`;
  return (
    `<p style="font-family:Arial,sans-serif;font-size:14px;font-weight:bold;margin:16px 0 6px;">The session in one picture</p>` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;table-layout:fixed;border:1px solid #999999;"><tr>${cells}</tr></table>` +
    `<table role="presentation" cellpadding="0" cellspacing="4" border="0" style="margin-top:8px;">${rows}</table>` +
    local
  );
}

/** The same for the plain-text part: one period per line. */
export function renderTimelineText(timeline: FlagTimeline): string {
  const marks = describeSectorMarks(timeline);
  return [
    'The session in one picture:',
    ...describeFlagPeriods(timeline).map((line) => `- ${line}`),
    ...(marks.length === 0 ? [] : [`Local yellows: ${marks.join(', ')}.`]),
  ].join('\n');
}
