import { COLOR_PRESETS, FASTEST_LAP_PURPLE, TEST_FLAG_HOLD_MS, type LightStep } from '@flaglight/core';
import { describe, expect, test } from 'vitest';
import { FakeTimers } from '../../test/fake-timers.js';
import { DriverEvents, type LightDriver } from '../driver.js';
import { createScreenDriver } from '../screen/driver.js';
import { createEffectPlayer } from './player.js';
import { expandStrobe } from './strobe.js';

type Sent = { at: number; ids: readonly string[]; step: Exclude<LightStep, { kind: 'restore' }> };

function recordingDriver(timers: FakeTimers, nativeStrobe = true, minHalf = 0) {
  const sent: Sent[] = [];
  const events = new DriverEvents();
  let cancelled = 0;
  const driver: LightDriver = {
    provider: 'lifx',
    nativeStrobe,
    minStrobeHalfPeriodMs: () => minHalf,
    listDevices: async () => [],
    setState: async () => undefined,
    playStep: async (ids, step) => {
      sent.push({ at: timers.now(), ids, step });
    },
    cancelPending: () => {
      cancelled += 1;
    },
    subscribe: (listener) => events.subscribe(listener),
  };
  return { driver, sent, events, cancelled: () => cancelled };
}

function setup(options: { nativeStrobe?: boolean; minHalf?: number; devices?: string[] } = {}) {
  const timers = new FakeTimers();
  const rec = recordingDriver(timers, options.nativeStrobe ?? true, options.minHalf ?? 0);
  const warnings: string[] = [];
  const devices = options.devices ?? ['a', 'b'];
  const player = createEffectPlayer({
    driver: rec.driver,
    devices: () => devices,
    timers,
    onWarning: (m) => warnings.push(m),
  });
  const t0 = timers.now();
  const offsets = () => rec.sent.map((s) => s.at - t0);
  return { timers, player, warnings, t0, offsets, ...rec };
}

describe('effect player: SPEC §4 timings on a fake clock', () => {
  test('green: full at 0 (0.2 s fade), 50% at 5 s', async () => {
    const { player, timers, sent, offsets } = setup();
    player.play('green');
    await timers.advance(6000);
    expect(offsets()).toEqual([0, 5000]);
    expect(sent.map((s) => s.step)).toMatchObject([
      { kind: 'set-state', brightness: 1, transitionMs: 200, color: COLOR_PRESETS.green },
      { kind: 'set-state', brightness: 0.5, color: COLOR_PRESETS.green },
    ]);
    expect(sent[0]!.ids).toEqual(['a', 'b']);
  });

  test.each(['red', 'yellow', 'safety'])('%s: strobe at 0, solid 50%% at 1.5 s', async (flag) => {
    const { player, timers, sent, offsets } = setup();
    player.play(flag);
    await timers.advance(2000);
    expect(offsets()).toEqual([0, 1500]);
    expect(sent[0]!.step).toMatchObject({ kind: 'strobe', periodMs: 100, cycles: 10 });
  });

  test('checkered: strobe 0.2 s × 15 at 0, solid white at 3.5 s', async () => {
    const { player, timers, sent, offsets } = setup();
    player.play('checkered');
    await timers.advance(4000);
    expect(offsets()).toEqual([0, 3500]);
    expect(sent[1]!.step).toMatchObject({ color: COLOR_PRESETS.white, brightness: 1 });
  });

  test('a driver without native strobe gets every flash at its time (red: 20 changes, 50 ms apart)', async () => {
    const { player, timers, sent, offsets } = setup({ nativeStrobe: false });
    player.play('red');
    await timers.advance(2000);
    expect(offsets()).toEqual([...Array.from({ length: 20 }, (_, k) => k * 50), 1500]);
    expect(sent.slice(0, 3).map((s) => s.step.color.name)).toEqual(['red', 'black', 'red']);
  });

  test('a slow driver (Hue: 100 ms per light) gets a stretched strobe of the same length', () => {
    const steps = expandStrobe(
      {
        kind: 'strobe',
        atMs: 0,
        color: COLOR_PRESETS.red,
        fromColor: COLOR_PRESETS.black,
        brightness: 1,
        periodMs: 100,
        cycles: 10,
      },
      200,
    );
    expect(steps.map((s) => s.atMs)).toEqual([0, 200, 400, 600, 800]);
  });

  test('fastest lap shows purple, then restores the lasting flag after 3 s', async () => {
    const { player, timers, sent, offsets } = setup();
    player.play('red');
    await timers.advance(2000);
    player.play('fastest_lap');
    await timers.advance(4000);
    expect(offsets()).toEqual([0, 1500, 2000, 5000]);
    expect(sent[2]!.step.color).toEqual(FASTEST_LAP_PURPLE);
    expect(sent[3]!.step).toMatchObject({ kind: 'set-state', color: COLOR_PRESETS.red, brightness: 0.5 });
    expect(player.current()).toBe('fastest_lap');
  });

  test("a test flag plays its effect, holds its look, then the lights go back to the race's flag", async () => {
    const { player, timers, sent, offsets } = setup();
    player.play('green');
    await timers.advance(6000);
    player.playMomentary('red');
    await timers.advance(10_000);
    // green 0 and 5000; the red test from 6000: strobe, solid at +1500, back to dim green at +1500+3000.
    expect(offsets().slice(0, 2)).toEqual([0, 5000]);
    expect(offsets().at(-1)).toBe(6000 + 1500 + TEST_FLAG_HOLD_MS);
    expect(sent.at(-2)!.step).toMatchObject({ kind: 'set-state', color: COLOR_PRESETS.red });
    expect(sent.at(-1)!.step).toMatchObject({
      kind: 'set-state',
      color: COLOR_PRESETS.green,
      brightness: 0.5,
    });
  });

  test('a race flag that starts during a test replaces it, and the test does not come back', async () => {
    const { player, timers, sent } = setup();
    player.play('green');
    await timers.advance(6000);
    player.playMomentary('checkered');
    await timers.advance(1000);
    player.play('yellow');
    await timers.advance(20_000);
    expect(sent.at(-1)!.step).toMatchObject({ kind: 'set-state', color: COLOR_PRESETS.yellow });
  });

  test('a test before any race flag leaves its own look (there is no race look to go back to)', async () => {
    const { player, timers, sent } = setup();
    player.playMomentary('vsc');
    await timers.advance(20_000);
    expect(sent.at(-1)!.step).toMatchObject({ kind: 'set-state', color: COLOR_PRESETS.orange });
  });

  test("once the lasting flag's session ended, a test leaves its own look (the room is given back by others)", async () => {
    const { player, timers, sent } = setup();
    player.play('checkered');
    await timers.advance(10_000);
    player.endLasting();
    player.playMomentary('red');
    await timers.advance(20_000);
    expect(sent.at(-1)!.step).toMatchObject({ kind: 'set-state', color: COLOR_PRESETS.red });
    // A new race flag lasts again.
    player.play('green');
    await timers.advance(6000);
    player.playMomentary('red');
    await timers.advance(20_000);
    expect(sent.at(-1)!.step).toMatchObject({ kind: 'set-state', color: COLOR_PRESETS.green });
  });

  test('timers that fire early are re-armed: steps never run before their target', async () => {
    const timers = new FakeTimers();
    const early = Object.assign(Object.create(timers) as FakeTimers, {
      setTimeout: (fn: () => void, ms: number) => timers.setTimeout(fn, ms <= 0 ? 0 : Math.max(1, ms - 30)),
    });
    const rec = recordingDriver(timers);
    const player = createEffectPlayer({ driver: rec.driver, devices: () => ['a'], timers: early });
    const t0 = timers.now();
    player.play('green');
    await timers.advance(6000);
    expect(rec.sent.map((s) => s.at - t0)).toEqual([0, 5000]);
  });
});

describe('effect player: cancellation and delayed flags', () => {
  test('a new flag cancels what remains of the previous one and the queued commands', async () => {
    const { player, timers, sent, offsets, cancelled } = setup();
    player.play('green');
    await timers.advance(1000);
    player.play('red');
    await timers.advance(6000);
    expect(offsets()).toEqual([0, 1000, 2500]);
    expect(sent.map((s) => s.step.color.name)).toEqual(['green', 'red', 'red']);
    expect(cancelled()).toBeGreaterThanOrEqual(2);
  });

  test('a driver disconnect cancels every pending step and scheduled flag', async () => {
    const { player, timers, events, offsets, t0 } = setup();
    player.play('green');
    player.schedule('red', t0 + 10_000);
    await timers.advance(1000);
    events.emit({ type: 'disconnect', error: { kind: 'auth', message: 'Invalid LIFX API token' } });
    await timers.advance(20_000);
    expect(offsets()).toEqual([0]);
    expect(player.scheduled()).toEqual([]);
    expect(player.pendingSteps()).toBe(0);
  });

  test('a user or token switch (driver reset) cancels everything too', async () => {
    const { player, timers, events, offsets, t0 } = setup();
    player.schedule('yellow', t0 + 5000);
    events.emit({ type: 'reset' });
    await timers.advance(10_000);
    expect(offsets()).toEqual([]);
  });

  test('delayed flags fire at their target time, in order, each superseding the last', async () => {
    const { player, timers, offsets, sent, t0 } = setup();
    player.schedule('yellow', t0 + 5000);
    player.schedule('green', t0 + 6000);
    expect(player.scheduled().map((s) => s.flag)).toEqual(['yellow', 'green']);
    await timers.advance(12_000);
    expect(offsets()).toEqual([5000, 6000, 11_000]);
    expect(sent.map((s) => s.step.kind)).toEqual(['strobe', 'set-state', 'set-state']);
  });

  test('a scheduled flag can be cancelled alone; cancelAll clears the rest', async () => {
    const { player, timers, offsets, t0 } = setup();
    const first = player.schedule('red', t0 + 1000);
    player.schedule('green', t0 + 2000);
    first?.cancel();
    await timers.advance(1500);
    expect(offsets()).toEqual([]);
    player.cancelAll();
    await timers.advance(10_000);
    expect(offsets()).toEqual([]);
  });

  test('a scheduled flag whose `stillPlays` says no when its time comes plays nothing; the next one plays', async () => {
    const { player, timers, offsets, t0 } = setup();
    let plays = true;
    player.schedule('red', t0 + 1000, () => plays);
    player.schedule('green', t0 + 2000, () => true);
    plays = false;
    await timers.advance(1500);
    expect(offsets()).toEqual([]);
    await timers.advance(1000);
    expect(offsets()).toEqual([2000]);
  });

  test('a flag that starts late catches up to the latest step due', async () => {
    const { player, timers, offsets, sent } = setup();
    player.schedule('red', timers.now() - 2000);
    await timers.advance(10);
    expect(offsets()).toEqual([0]);
    expect(sent[0]!.step).toMatchObject({ kind: 'set-state', brightness: 0.5 });
  });

  test('unknown flag: warning, ignored; no devices: warning, skipped', async () => {
    const unknown = setup();
    expect(unknown.player.play('purple')).toBe(false);
    expect(unknown.player.schedule('blue', unknown.t0 + 10)).toBeNull();
    expect(unknown.warnings).toEqual(['Unknown flag type: purple', 'Unknown flag type: blue']);
    const empty = setup({ devices: [] });
    empty.player.play('red');
    await empty.timers.advance(5000);
    expect(empty.sent).toEqual([]);
    expect(empty.warnings[0]).toMatch(/No devices/);
  });

  test('dispose stops listening and cancels', async () => {
    const { player, timers, events, offsets } = setup();
    player.play('green');
    player.dispose();
    events.emit({ type: 'warning', message: 'ignored' });
    await timers.advance(6000);
    expect(offsets()).toEqual([]);
  });
});

describe('screen light', () => {
  test('exposes the current look, with the SPEC timings, to subscribers', async () => {
    const timers = new FakeTimers();
    const screen = createScreenDriver({ timers });
    const seen: string[] = [];
    screen.subscribeState((s) => seen.push(`${timers.now() - t0}:${s.on ? s.css : 'off'}`));
    const t0 = timers.now();
    const player = createEffectPlayer({ driver: screen, devices: () => ['screen'], timers });
    expect(await screen.listDevices()).toEqual([expect.objectContaining({ id: 'screen', type: 'screen' })]);
    player.play('red');
    await timers.advance(2000);
    expect(seen.slice(0, 3)).toEqual(['0:rgb(255 0 0)', '50:off', '100:rgb(255 0 0)']);
    expect(seen).toHaveLength(21);
    expect(seen.at(-1)).toBe('1500:rgb(128 0 0)');
    expect(screen.getState()).toMatchObject({ on: true, brightness: 0.5, color: COLOR_PRESETS.red });
  });

  test('green fades in over 0.2 s (transitionMs for the panel)', async () => {
    const screen = createScreenDriver();
    await screen.playStep(['screen'], {
      kind: 'set-state',
      atMs: 0,
      color: COLOR_PRESETS.green,
      brightness: 1,
      transitionMs: 200,
    });
    expect(screen.getState()).toMatchObject({ css: 'rgb(0 255 0)', transitionMs: 200 });
  });
});
