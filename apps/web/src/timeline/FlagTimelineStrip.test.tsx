import { deriveFlagTimeline, describeFlagTimeline, type FlagTimeline } from '@flaglight/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { FlagTimelineStrip } from './FlagTimelineStrip';

const MIN = 60_000;
const START = Date.parse('2025-07-06T14:00:00Z');

const TIMELINE: FlagTimeline = deriveFlagTimeline(
  [
    { at: START + 10 * MIN, state: 'yellow', activeSectors: [], safetyCar: true },
    { at: START + 15 * MIN, state: 'green', activeSectors: [] },
    { at: START + 20 * MIN, state: 'yellow', activeSectors: [7] },
    { at: START + 22 * MIN, state: 'green', activeSectors: [] },
    { at: START + 30 * MIN, state: 'vsc', activeSectors: [] },
    { at: START + 35 * MIN, state: 'red', activeSectors: [] },
    { at: START + 50 * MIN, state: 'green', activeSectors: [] },
    { at: START + 90 * MIN, state: 'checkered', activeSectors: [] },
  ],
  { start: START, end: START + 100 * MIN },
);

describe('flag timeline strip', () => {
  test('colours each period by its flag and sizes it by its length', () => {
    render(<FlagTimelineStrip timeline={TIMELINE} />);
    const strip = screen.getByRole('img', { name: /^Flag timeline:/ });
    const segments = [...strip.querySelectorAll<HTMLElement>('[data-state]')];
    expect(segments.map((s) => [s.dataset.state, s.className.split(' ')[0], s.style.width])).toEqual([
      ['green', 'bg-flag-green', '10%'],
      ['safety_car', 'bg-flag-safety', '5%'],
      ['green', 'bg-flag-green', '15%'],
      ['vsc', 'bg-flag-vsc', '5%'],
      ['red', 'bg-flag-red', '15%'],
      ['green', 'bg-flag-green', '40%'],
      ['checkered', 'bg-checkered', '10%'],
    ]);
    const mark = within(strip).getByTestId('timeline-sector-mark');
    expect(mark).toHaveClass('bg-flag-yellow');
    expect([mark.style.left, mark.style.width]).toEqual(['20%', '2%']);
  });

  test('its text alternative lists the periods and local yellows the core derived', () => {
    render(<FlagTimelineStrip timeline={TIMELINE} label="Race" />);
    expect(screen.getByRole('img')).toHaveAccessibleName(`Race: ${describeFlagTimeline(TIMELINE)}`);
    expect(screen.getByRole('img')).toHaveAccessibleName(
      'Race: Green 0:00–10:00, Safety car 10:00–15:00, Green 15:00–30:00, Virtual safety car 30:00–35:00, ' +
        'Red flag 35:00–50:00, Green 50:00–1:30:00, Chequered 1:30:00–1:40:00. ' +
        'Local yellows: Yellow in sector 7 at 20:00.',
    );
  });

  test('marks the current position and says where it is', () => {
    render(<FlagTimelineStrip timeline={TIMELINE} positionMs={40 * MIN} />);
    const strip = screen.getByRole('img');
    expect(within(strip).getByTestId('timeline-position').style.left).toBe('40%');
    expect(strip.getAttribute('aria-label')).toMatch(/Now at 40:00, Red flag\.$/);
  });

  test('without a position there is no marker', () => {
    render(<FlagTimelineStrip timeline={TIMELINE} />);
    expect(screen.queryByTestId('timeline-position')).not.toBeInTheDocument();
  });

  test('a seekable strip has a button per period that moves to its start from the keyboard', () => {
    const onSeek = vi.fn();
    render(<FlagTimelineStrip timeline={TIMELINE} positionMs={5 * MIN} onSeek={onSeek} label="Replay" />);
    const group = screen.getByRole('group', { name: 'Replay. Now at 5:00, Green.' });
    expect(group).toHaveAccessibleDescription(describeFlagTimeline(TIMELINE));
    const buttons = within(group).getAllByRole('button');
    expect(buttons).toHaveLength(TIMELINE.periods.length);
    const red = within(group).getByRole('button', { name: 'Go to Red flag 35:00–50:00' });
    red.focus();
    expect(red).toHaveFocus();
    // A keyboard activation is a click without a pointer (detail 0).
    fireEvent.click(red, { detail: 0 });
    expect(onSeek).toHaveBeenCalledWith(35 * MIN);
  });

  test('a click on a seekable strip moves to the point clicked', () => {
    const onSeek = vi.fn();
    render(<FlagTimelineStrip timeline={TIMELINE} onSeek={onSeek} />);
    const red = screen.getByRole('button', { name: 'Go to Red flag 35:00–50:00' });
    red.getBoundingClientRect = () => ({ left: 100, width: 150, top: 0, height: 10 }) as DOMRect;
    fireEvent.click(red, { detail: 1, clientX: 200 });
    expect(onSeek).toHaveBeenCalledWith(45 * MIN);
  });
});
