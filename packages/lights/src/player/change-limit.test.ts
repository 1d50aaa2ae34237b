import { SECOND_MS, TRACKSIDE, type LightStep, type LookSet } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { FakeTimers } from '../../test/fake-timers.js';
import { DriverEvents, type LightDriver } from '../driver.js';
import { limitChanges } from './change-limit.js';
import { createEffectPlayer } from './player.js';

function setup(active: () => boolean, looks?: LookSet) {
  const timers = new FakeTimers();
  const sent: { at: number; step: Exclude<LightStep, { kind: 'restore' }> }[] = [];
  const events = new DriverEvents();
  const driver: LightDriver = {
    provider: 'lifx',
    nativeStrobe: true,
    minStrobeHalfPeriodMs: () => 0,
    listDevices: async () => [],
    setState: async () => undefined,
    playStep: async (_ids, step) => {
      sent.push({ at: timers.now(), step });
    },
    cancelPending: () => undefined,
    subscribe: (listener) => events.subscribe(listener),
  };
  const limited = limitChanges(driver, { active, timers });
  const player = createEffectPlayer({ driver: limited, devices: () => ['a'], timers, looks: () => looks });
  return { timers, player, sent, limited };
}

/** The most changes in any one second, a window starting at each change. */
function busiestSecond(times: number[]): number {
  return Math.max(
    0,
    ...times.map((start) => times.filter((t) => t >= start && t < start + SECOND_MS).length),
  );
}

describe('no more than 3 changes a second across flags', () => {
  test('flags a moment apart: never 4 changes in a second, and the lights end on the latest look', async () => {
    const noFlash = { ...TRACKSIDE, noFlashing: true };
    const { timers, player, sent } = setup(() => true, noFlash);
    for (const flag of ['yellow', 'red', 'green', 'safety', 'vsc', 'checkered']) {
      player.play(flag);
      await timers.advance(150);
    }
    await timers.advance(10_000);
    expect(busiestSecond(sent.map((s) => s.at))).toBeLessThanOrEqual(3);
    expect(sent.at(-1)!.step).toMatchObject({ color: { name: 'white' }, brightness: 1 });
  });

  test('while active a native strobe is expanded, so each of its changes is counted', async () => {
    const { timers, player, sent } = setup(() => true);
    player.play('red');
    await timers.advance(5000);
    expect(sent.every((s) => s.step.kind === 'set-state')).toBe(true);
    expect(busiestSecond(sent.map((s) => s.at))).toBeLessThanOrEqual(3);
    expect(sent.at(-1)!.step).toMatchObject({ color: { name: 'red' }, brightness: 0.5 });
  });

  test('off, the driver plays as before: a native strobe, on time', async () => {
    const { timers, player, sent, limited } = setup(() => false);
    expect(limited.nativeStrobe).toBe(true);
    player.play('checkered');
    await timers.advance(10_000);
    expect(sent.map((s) => [s.step.kind, s.at - sent[0]!.at])).toEqual([
      ['strobe', 0],
      ['set-state', 3500],
    ]);
  });

  test('a cancel drops the look waiting for its second', async () => {
    const { timers, player, sent } = setup(() => true);
    player.play('red');
    await timers.advance(100);
    const before = sent.length;
    player.cancelAll();
    await timers.advance(5000);
    expect(sent.length).toBe(before);
  });
});
