import { classifyMessage } from '../flags/classify.js';
import { createFlagTracker, readMessageDate } from '../flags/tracker.js';
import type { TimelineChange } from './flag-timeline.js';

type Kind = 'green' | 'sectors' | 'safety_car' | 'other';

function kindOf(state: string, sectors: number, safetyCar: boolean): Kind {
  if (state === 'yellow') return safetyCar ? 'safety_car' : sectors > 0 ? 'sectors' : 'other';
  return state === 'green' ? 'green' : 'other';
}

/**
 * The timeline's changes of a recorded race-control stream, through the same tracker as
 * `deriveLightChanges`, plus what the light changes cannot say: a safety car sent out while a
 * sector yellow already shows keeps the light yellow (no light change), yet on the timeline the
 * local yellow becomes a safety-car period. Records are taken oldest first; undated ones skipped.
 */
export function deriveRaceControlTimelineChanges(messages: readonly unknown[]): TimelineChange[] {
  const dated = (Array.isArray(messages) ? messages : [])
    .map((message: unknown, index) => ({ message, index, date: readMessageDate(message) }))
    .flatMap((entry) => (entry.date === null ? [] : [{ ...entry, ms: entry.date.ms }]))
    .sort((a, b) => a.ms - b.ms || a.index - b.index);
  const tracker = createFlagTracker();
  const changes: TimelineChange[] = [];
  let safetyCar = false;
  let last = { state: 'green', kind: 'green' as Kind };
  for (const { message, ms } of dated) {
    const effect = classifyMessage(message);
    if (effect.kind === 'track') safetyCar = effect.state === 'yellow';
    tracker.push(message);
    const state = tracker.state();
    const activeSectors = tracker.activeSectors();
    const kind = kindOf(state, activeSectors.length, safetyCar);
    if (state === last.state && kind === last.kind) continue;
    last = { state, kind };
    changes.push({ at: ms, state, activeSectors, safetyCar: kind === 'safety_car' });
  }
  return changes;
}
