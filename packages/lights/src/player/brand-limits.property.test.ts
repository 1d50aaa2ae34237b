import { EFFECT_FLAGS, SECOND_MS, type EffectFlag, type LookSet } from '@flaglight/core';
import { lookSetArbitrary } from '@flaglight/core/testing';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FakeTimers } from '../../test/fake-timers.js';
import { createHueDriver } from '../hue/driver.js';
import type { HueTransport } from '../hue/transports.js';
import { createScreenDriver } from '../screen/driver.js';
import { limitChanges } from './change-limit.js';
import { createEffectPlayer } from './player.js';

/** Any look the players may be given: effects from 0 ms (core stretches them) up to 10 s. */
const lookSet = (noFlashing: fc.Arbitrary<boolean>): fc.Arbitrary<LookSet> =>
  lookSetArbitrary({ noFlashing, effectMs: 'any', maxEffectMs: 10_000 });
/** A race's flags a random gap apart (a burst included), and tests among them. */
const race = fc.array(
  fc.record({
    flag: fc.constantFrom<EffectFlag>(...EFFECT_FLAGS),
    afterMs: fc.integer({ min: 0, max: 4_000 }),
    test: fc.boolean(),
  }),
  { minLength: 1, maxLength: 6 },
);

/** The most of `times` in any one second. */
const busiestSecond = (times: number[]) =>
  Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + SECOND_MS).length));

async function playRace(
  player: ReturnType<typeof createEffectPlayer>,
  timers: FakeTimers,
  flags: { flag: EffectFlag; afterMs: number; test: boolean }[],
) {
  for (const { flag, afterMs, test: isTest } of flags) {
    if (isTest) player.playMomentary(flag);
    else player.play(flag);
    await timers.advance(afterMs);
  }
  await timers.advance(40_000);
}

describe("the browser's players keep each brand's limits, for any looks", () => {
  test('Hue: at most 10 commands a second to a bridge; with No flashing no light changes more than 3 times a second', async () => {
    await fc.assert(
      fc.asyncProperty(lookSet(fc.boolean()), race, async (looks, flags) => {
        const timers = new FakeTimers();
        const puts: { at: number; id: string }[] = [];
        const transport: HueTransport = {
          kind: 'bridge',
          listLights: async () => ['a', 'b', 'c'].map((id) => ({ id, name: id, type: 'light' })),
          putLight: async (id) => {
            puts.push({ at: timers.now(), id });
          },
        };
        const hue = createHueDriver({ transport, timers });
        await hue.connect();
        const player = createEffectPlayer({
          driver: limitChanges(hue, { active: () => looks.noFlashing, timers }),
          devices: () => ['a', 'b', 'c'],
          timers,
          looks: () => looks,
        });
        await playRace(player, timers, flags);
        expect(busiestSecond(puts.map((p) => p.at))).toBeLessThanOrEqual(10);
        if (looks.noFlashing)
          for (const id of ['a', 'b', 'c'])
            expect(busiestSecond(puts.filter((p) => p.id === id).map((p) => p.at))).toBeLessThanOrEqual(3);
      }),
      { numRuns: 40 },
    );
  });

  test('the screen (and LIFX cloud, through the same limit): with No flashing never more than 3 changes a second, across flags and tests', async () => {
    await fc.assert(
      fc.asyncProperty(lookSet(fc.constant(true)), race, async (looks, flags) => {
        const timers = new FakeTimers();
        const screen = createScreenDriver({ timers });
        const changes: number[] = [];
        screen.subscribeState((state) => changes.push(state.changedAt));
        const player = createEffectPlayer({
          driver: limitChanges(screen, { active: () => looks.noFlashing, timers }),
          devices: () => ['screen'],
          timers,
          looks: () => looks,
        });
        await playRace(player, timers, flags);
        expect(busiestSecond(changes)).toBeLessThanOrEqual(3);
      }),
      { numRuns: 60 },
    );
  });
});
