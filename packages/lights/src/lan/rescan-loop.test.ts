import { describe, expect, test } from 'vitest';
import { FakeTimers } from '../../test/fake-timers.js';
import { createRescanLoop, type RescanLoop } from './rescan-loop.js';

/** A loop whose scan listens for `windowMs` (through the loop's wait) and counts its runs. */
function countingLoop(options: { intervalMs: number; windowMs?: number; fail?: () => boolean }) {
  const timers = new FakeTimers(0);
  const errors: unknown[] = [];
  let scans = 0;
  const loop: RescanLoop<number> = createRescanLoop({
    timers,
    intervalMs: options.intervalMs,
    scan: async () => {
      scans += 1;
      await loop.wait(options.windowMs ?? 100);
      if (options.fail?.()) throw new Error('scan failed');
      return scans;
    },
    onError: (error) => errors.push(error),
  });
  return { timers, loop, errors, scans: () => scans };
}

describe('rescan loop', () => {
  test('a scan that succeeds is repeated every interval after it ends', async () => {
    const { timers, loop, scans } = countingLoop({ intervalMs: 1_000 });
    const first = loop.run();
    await timers.advance(100);
    await expect(first).resolves.toBe(1);
    expect(timers.pending()).toEqual([1_000]);
    await timers.advance(999);
    expect(scans()).toBe(1);
    await timers.advance(1);
    expect(scans()).toBe(2);
    // The next interval counts from the end of the scan's 100 ms window.
    await timers.advance(100 + 999);
    expect(scans()).toBe(2);
    await timers.advance(1);
    expect(scans()).toBe(3);
  });

  test('callers during a scan join it instead of starting another', async () => {
    const { timers, loop, scans } = countingLoop({ intervalMs: 0 });
    const first = loop.run();
    const second = loop.run();
    expect(loop.isRunning()).toBe(true);
    await timers.advance(100);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(scans()).toBe(1);
    expect(loop.isRunning()).toBe(false);
  });

  test('an interval of 0 never re-scans on a timer', async () => {
    const { timers, loop, scans } = countingLoop({ intervalMs: 0 });
    const done = loop.run();
    await timers.advance(100);
    await done;
    expect(timers.pending()).toEqual([]);
    await timers.advance(60_000);
    expect(scans()).toBe(1);
  });

  test('a failed scan arms no timer; a timed scan that fails goes to onError', async () => {
    let failing = false;
    const { timers, loop, errors, scans } = countingLoop({ intervalMs: 1_000, fail: () => failing });
    const first = loop.run();
    await timers.advance(100);
    await first;
    failing = true;
    await timers.advance(1_000 + 100);
    expect(scans()).toBe(2);
    expect(errors).toEqual([new Error('scan failed')]);
    expect(timers.pending()).toEqual([]);
  });

  test('rescan() starts a scan nobody awaits unless one is running', async () => {
    const { timers, loop, scans } = countingLoop({ intervalMs: 0 });
    loop.rescan();
    loop.rescan();
    await timers.advance(100);
    expect(scans()).toBe(1);
  });

  test('stop() ends a running scan’s waits at once and cancels the timed scan', async () => {
    const { timers, loop, scans } = countingLoop({ intervalMs: 1_000, windowMs: 5_000 });
    const first = loop.run();
    await timers.advance(5_000);
    await first;
    const second = loop.run();
    await timers.advance(10);
    loop.stop();
    await expect(second).resolves.toBe(2);
    expect(timers.pending()).toEqual([]);
    await timers.advance(60_000);
    expect(scans()).toBe(2);
  });
});
