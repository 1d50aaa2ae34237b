import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  deriveFlagTimeline,
  deriveRaceControlTimelineChanges,
  describeFlagPeriods,
  readMessageDate,
} from '@flaglight/core';
import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { FlagTimelineStrip } from './FlagTimelineStrip';

// The product's recordings as files: the web app may not import the (Node-only) data package.
const RECORDINGS_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'packages', 'data', 'race-control');
const recordings = readdirSync(RECORDINGS_DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length));

function timelineOf(name: string) {
  const { messages } = JSON.parse(readFileSync(join(RECORDINGS_DIR, `${name}.json`), 'utf8')) as {
    messages: unknown[];
  };
  const dates = messages.flatMap((m) => readMessageDate(m)?.ms ?? []);
  const start = Math.min(...dates);
  return deriveFlagTimeline(deriveRaceControlTimelineChanges(messages), { start, end: Math.max(...dates) });
}

describe('the timeline of every recorded session', () => {
  test('there are recordings', () => {
    expect(recordings.length).toBeGreaterThan(20);
  });

  test.each(recordings)('%s renders, and its text alternative lists the derived periods', (name) => {
    const timeline = timelineOf(name);
    render(<FlagTimelineStrip timeline={timeline} positionMs={timeline.lengthMs / 2} />);
    const strip = screen.getByRole('img', { name: /^Flag timeline:/ });
    const segments = [...strip.querySelectorAll<HTMLElement>('[data-state]')];
    expect(segments.map((s) => s.dataset.state)).toEqual(timeline.periods.map((p) => p.state));
    const label = strip.getAttribute('aria-label') ?? '';
    const listed = label.slice('Flag timeline: '.length).split('.')[0]?.split(', ');
    expect(listed).toEqual(describeFlagPeriods(timeline));
    expect(strip.querySelectorAll('[data-testid="timeline-sector-mark"]')).toHaveLength(
      timeline.sectorMarks.length,
    );
    cleanup();
  });
});
