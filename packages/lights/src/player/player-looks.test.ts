import { COLOR_PRESETS, TRACKSIDE, type LightStep, type LookSet, type ShowLook } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { FakeTimers } from '../../test/fake-timers.js';
import { DriverEvents, type LightDriver } from '../driver.js';
import { createEffectPlayer } from './player.js';

type Sent = { at: number; step: Exclude<LightStep, { kind: 'restore' }> };

const BLUE = { name: 'blue', hue: 220, saturation: 1 };

/** Red a steady blue at 40 %, fastest lap and yellow left alone. */
const FAN: LookSet = {
  ...TRACKSIDE,
  flags: {
    ...TRACKSIDE.flags,
    red: {
      kind: 'show',
      color: BLUE,
      brightness: 40,
      effect: { kind: 'steady' },
      effectMs: 200,
      settleBrightness: 40,
    },
    yellow: { kind: 'leave' },
    fastest_lap: { kind: 'leave' },
  },
};

function setup(initial: LookSet | undefined) {
  const timers = new FakeTimers();
  const sent: Sent[] = [];
  const events = new DriverEvents();
  let cancelled = 0;
  const driver: LightDriver = {
    provider: 'lifx',
    nativeStrobe: true,
    minStrobeHalfPeriodMs: () => 0,
    listDevices: async () => [],
    setState: async () => undefined,
    playStep: async (_ids, step) => {
      sent.push({ at: timers.now(), step });
    },
    cancelPending: () => (cancelled += 1),
    subscribe: (listener) => events.subscribe(listener),
  };
  let looks = initial;
  const player = createEffectPlayer({ driver, devices: () => ['a'], timers, looks: () => looks });
  return {
    timers,
    player,
    sent,
    cancelled: () => cancelled,
    setLooks: (next: LookSet | undefined) => (looks = next),
  };
}

describe("effect player: the fan's look set", () => {
  test('red plays as the chosen steady blue at 40 %, no strobe', async () => {
    const { player, timers, sent } = setup(FAN);
    player.play('red');
    await timers.advance(5000);
    expect(sent.map((s) => s.step.kind)).not.toContain('strobe');
    expect(sent.every((s) => s.step.color.hue === 220 && s.step.brightness === 0.4)).toBe(true);
  });

  test('a flag left alone changes nothing: what plays goes on, and a later restore uses the flag before', async () => {
    const { player, timers, sent, cancelled } = setup(FAN);
    player.play('green');
    await timers.advance(1000);
    const before = cancelled();
    player.play('fastest_lap');
    player.play('yellow');
    await timers.advance(5000);
    // Green's settle at 5 s still came: nothing was cancelled.
    expect(cancelled()).toBe(before);
    expect(sent.map((s) => [s.at - sent[0]!.at, s.step.color.name])).toEqual([
      [0, 'green'],
      [5000, 'green'],
    ]);
    expect(player.current()).toBe('green');
    // A test of red goes back to green's settled look: the left yellow never became the lasting flag.
    player.playMomentary('red');
    await timers.advance(10_000);
    expect(sent.at(-1)!.step).toMatchObject({ color: COLOR_PRESETS.green, brightness: 0.5 });
  });

  test('a look set changed before a scheduled flag starts applies to it', async () => {
    const { player, timers, sent, setLooks } = setup(undefined);
    player.schedule('red', timers.now() + 1000);
    setLooks(FAN);
    await timers.advance(3000);
    expect(sent.map((s) => s.step.kind)).not.toContain('strobe');
    expect(sent.every((s) => s.step.color.hue === BLUE.hue)).toBe(true);
  });

  test('without a look set the flags play Trackside', async () => {
    const { player, timers, sent } = setup(undefined);
    player.play('red');
    await timers.advance(2000);
    expect(sent.map((s) => s.step.kind)).toEqual(['strobe', 'set-state']);
  });

  test('showLook sends one look now and drops the pending steps; the lasting flag stays', async () => {
    const { player, timers, sent } = setup(undefined);
    player.play('green');
    await timers.advance(100);
    const green = TRACKSIDE.flags.green as ShowLook;
    player.showLook({ color: { ...green.color }, brightness: 0.1 }, 2000);
    await timers.advance(10_000);
    expect(sent.map((s) => s.step.brightness)).toEqual([1, 0.1]);
    expect(player.current()).toBe('green');
  });

  test('with no flashing a slowed pulse is played look by look even on a native-strobe driver', async () => {
    const yellow = TRACKSIDE.flags.yellow as ShowLook;
    const calm: LookSet = {
      ...TRACKSIDE,
      noFlashing: true,
      flags: {
        ...TRACKSIDE.flags,
        yellow: { ...yellow, effect: { kind: 'pulse', count: 2 }, effectMs: 2000 },
      },
    };
    const { player, timers, sent } = setup(calm);
    player.play('yellow');
    await timers.advance(5000);
    expect(sent.map((s) => s.step.kind)).not.toContain('strobe');
    const times = sent.map((s) => s.at - sent[0]!.at);
    expect(times.slice(1).every((t, i) => t - times[i]! >= 500)).toBe(true);
  });
});
