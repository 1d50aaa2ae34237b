import { hsbToRgb, type LightColor, type LightStep } from '@flaglight/core';
import {
  DriverEvents,
  isOff,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../driver.js';
import { systemTimers, type Timers } from '../timers.js';

export const SCREEN_DEVICE_ID = 'screen';

/** What the page shows; a React panel renders `css` (and fades over `transitionMs`). */
export interface ScreenLightState {
  on: boolean;
  color: LightColor | null;
  brightness: number;
  /** `rgb(r g b)` of colour × brightness; black when off. */
  css: string;
  transitionMs: number;
  /** Clock time of the change (the driver's timers). */
  changedAt: number;
}

export interface ScreenDriver extends LightDriver {
  readonly provider: 'screen';
  getState: () => ScreenLightState;
  /** Called on every change; returns an unsubscribe function (fits React's useSyncExternalStore). */
  subscribeState: (listener: (state: ScreenLightState) => void) => () => void;
}

/**
 * The on-screen light: its one "device" is the page itself. It holds the current look as
 * observable state and never touches the DOM; strobes are expanded by the player at full speed.
 */
export function createScreenDriver(options: { timers?: Timers; label?: string } = {}): ScreenDriver {
  const timers = options.timers ?? systemTimers;
  const events = new DriverEvents();
  const listeners = new Set<(state: ScreenLightState) => void>();
  let state: ScreenLightState = {
    on: false,
    color: null,
    brightness: 0,
    css: 'rgb(0 0 0)',
    transitionMs: 0,
    changedAt: timers.now(),
  };
  const device: LightDeviceInfo = {
    id: SCREEN_DEVICE_ID,
    label: options.label ?? 'This screen',
    name: options.label ?? 'This screen',
    type: 'screen',
    connected: true,
  };

  function setState(_ids: readonly string[], next: LightStateCommand): Promise<void> {
    const off = isOff(next);
    const { r, g, b } = off ? { r: 0, g: 0, b: 0 } : hsbToRgb({ ...next.color, brightness: next.brightness });
    state = {
      on: !off,
      color: off ? null : next.color,
      brightness: off ? 0 : next.brightness,
      css: `rgb(${r} ${g} ${b})`,
      transitionMs: next.transitionMs,
      changedAt: timers.now(),
    };
    for (const listener of [...listeners]) listener(state);
    return Promise.resolve();
  }

  return {
    provider: 'screen',
    nativeStrobe: false,
    minStrobeHalfPeriodMs: () => 0,
    listDevices: () => Promise.resolve([{ ...device }]),
    setState,
    playStep(ids, step: Exclude<LightStep, { kind: 'restore' }>) {
      return setState(ids, {
        on: true,
        color: step.color,
        brightness: step.brightness,
        transitionMs: step.kind === 'set-state' ? step.transitionMs : 0,
      });
    },
    cancelPending: () => undefined,
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    getState: () => state,
    subscribeState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
