import type { LookSet } from '@flaglight/core';
import {
  createEffectPlayer,
  limitChanges,
  SCREEN_DEVICE_ID,
  type EffectPlayer,
  type LifxCloudDriver,
  type LightErrorInfo,
  type ScreenDriver,
} from '@flaglight/lights';
import { SCREEN_MIN_STROBE_HALF_PERIOD_MS, type LightsEngineOptions } from './lights-engine-options';
import { holdingOut } from './room-joins';

// The effect players of the lights engine: LIFX's cloud (from the tab) and the on-screen light.

export interface EnginePlayersDeps {
  options: Pick<LightsEngineOptions, 'screenEnabled' | 'notify'>;
  lifx: LifxCloudDriver;
  screen: ScreenDriver;
  looks(): LookSet | undefined;
  screenLooks(): LookSet | undefined;
  /** The LIFX lights selected. */
  lifxIds(): string[];
  /** Of these LIFX lights, those a flag may change now (one being read, joined mid-session, waits). */
  lifxFree(ids: readonly string[]): string[];
  reportError(provider: 'lifx' | 'screen', error: LightErrorInfo): void;
}

export function createEnginePlayers(deps: EnginePlayersDeps): Record<'lifx' | 'screen', EffectPlayer> {
  const { options } = deps;
  const player = (driver: LifxCloudDriver | ScreenDriver, provider: 'lifx' | 'screen') =>
    createEffectPlayer({
      // With "No flashing" no light changes more than 3 times a second, across flags too. A LIFX
      // light being read is left out of each step until it is read.
      driver: limitChanges(provider === 'lifx' ? holdingOut(driver, (ids) => deps.lifxFree(ids)) : driver, {
        active: () => (provider === 'screen' ? deps.screenLooks() : deps.looks())?.noFlashing === true,
      }),
      looks: () => (provider === 'screen' ? deps.screenLooks() : deps.looks()),
      devices: () =>
        provider === 'screen'
          ? (options.screenEnabled?.() ?? true)
            ? [SCREEN_DEVICE_ID]
            : []
          : deps.lifxIds(),
      onWarning: (message) => options.notify.warning(message),
      onError: (error) => deps.reportError(provider, error),
    });
  return {
    lifx: player(deps.lifx, 'lifx'),
    // WCAG 2.3.1: a page may flash at most 3 times a second, so the screen's strobes are slower
    // (same length, fewer flashes); the real lights keep SPEC §4's pace.
    screen: player(
      { ...deps.screen, minStrobeHalfPeriodMs: () => SCREEN_MIN_STROBE_HALF_PERIOD_MS },
      'screen',
    ),
  };
}
