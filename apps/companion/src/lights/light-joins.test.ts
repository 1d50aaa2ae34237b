import { describe, expect, test, vi } from 'vitest';
import { createLightJoins, JOIN_READ_WAIT_MS, type JoiningEntry } from './joining-lights.js';

// Lights that join the driven ones mid-session are held out of every flag while the room reads them.

const strip = (driven: string[]): JoiningEntry<object> => ({
  key: 'wled',
  provider: 'wled',
  driver: {},
  driven,
});

describe('lights that join mid-session', () => {
  test('take no flag until the room has read them, then take the flag', async () => {
    const joins = createLightJoins<object>();
    let done: () => void = () => undefined;
    joins.setRead(() => new Promise<void>((resolve) => (done = resolve)));
    const shown: string[][] = [];
    joins.join([strip(['c'])], () => shown.push(joins.ready('wled', ['a', 'b', 'c'])));
    // Meanwhile a flag reaches only the lights driven before.
    expect(joins.ready('wled', ['a', 'b', 'c'])).toEqual(['a', 'b']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown).toEqual([]);
    done();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(shown).toEqual([['a', 'b', 'c']]);
  });

  test('with nothing to read (no session), the flag reaches them at once', () => {
    const joins = createLightJoins<object>();
    joins.setRead(() => null);
    let shown = 0;
    joins.join([strip(['c'])], () => (shown += 1));
    expect(shown).toBe(1);
    expect(joins.ready('wled', ['a', 'c'])).toEqual(['a', 'c']);
  });

  test(`a read that never ends holds them ${JOIN_READ_WAIT_MS} ms at most`, async () => {
    vi.useFakeTimers();
    try {
      const joins = createLightJoins<object>();
      joins.setRead(() => new Promise<void>(() => undefined));
      let shown = 0;
      joins.join([strip(['c'])], () => (shown += 1));
      await vi.advanceTimersByTimeAsync(JOIN_READ_WAIT_MS - 1);
      expect(joins.ready('wled', ['c'])).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(joins.ready('wled', ['c'])).toEqual(['c']);
      expect(shown).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
