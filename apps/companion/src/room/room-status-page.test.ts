import { describe, expect, test } from 'vitest';
import { renderStatusPage } from '../../test/status-page-dom.js';
import type { RoomView } from './room-snapshot.js';

// The status page's "as it was" parts, rendered by the page's own script: the note beside each light
// the session's end leaves as it is, and the last give-back in one line.
const lights = [
  {
    provider: 'lifx_lan',
    id: 'd073d51a0001',
    label: 'Lounge',
    reachable: true,
    lastColor: null,
    driven: true,
  },
  {
    provider: 'govee_lan',
    id: 'D4:AD:FC:60:00:00:00:02',
    label: 'Bulb 2',
    reachable: true,
    lastColor: null,
    driven: true,
  },
  {
    provider: 'home_assistant',
    id: 'light.porch',
    label: 'Porch light',
    reachable: true,
    lastColor: null,
    driven: true,
  },
];
const status = (room: RoomView) => ({ version: '0.1.0', platform: 'linux', linked: true, lights, room });

describe('the status page and the room', () => {
  test('beside each light that cannot be read it says the session leaves it as it is, and no other', () => {
    const page = renderStatusPage(
      status({
        sessionKey: 100002,
        unreadable: [
          { provider: 'govee_lan', id: 'D4:AD:FC:60:00:00:00:02', reason: 'This light cannot be read' },
          {
            provider: 'home_assistant',
            id: 'light.porch',
            reason: "This light did not answer before the session's first flag",
          },
        ],
        last: null,
      }),
    );
    const rows = page('lights')
      .descendants()
      .filter((e) => e.tagName === 'TR')
      .slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.not.stringContaining('left as it is'),
      expect.stringContaining(
        'Bulb 2This light cannot be read, so it is left as it is when the session ends.',
      ),
      expect.stringContaining(
        "Porch lightThis light did not answer before the session's first flag, so it is left as it is when the session ends.",
      ),
    ]);
    expect(page('room-last').hidden).toBe(true);
  });

  test('the last give-back in one line, the lights left named with why', () => {
    const all = renderStatusPage(
      status({
        sessionKey: null,
        unreadable: [],
        last: { at: '2026-11-29T21:40:12.345Z', restored: 24, left: [] },
      }),
    );
    expect(all('room-last').hidden).toBe(false);
    expect(all('room-last').textContent).toBe('Room given back at 21:40:12: 24 lights as they were.');

    const some = renderStatusPage(
      status({
        sessionKey: null,
        unreadable: [],
        last: {
          at: '2026-11-29T21:40:12.345Z',
          restored: 1,
          left: [
            { light: 'govee_lan:D4:AD:FC:60:00:00:00:02', reason: 'Govee device "Bulb 2" is not answering' },
            { light: 'wled:gone', reason: 'Not found or not answering now' },
          ],
        },
      }),
    );
    expect(some('room-last').textContent).toBe(
      'Room given back at 21:40:12: 1 light as they were; left as they are: Bulb 2 (Govee device "Bulb 2" is not answering), wled:gone (Not found or not answering now).',
    );
  });
});
