import type { LightColor, LightProvider as ListedLightProvider, LightStep } from '@flaglight/core';
import type { LightErrorInfo } from './errors.js';

/** Every provider an account's light lists name (`@flaglight/core`'s one list), and the on-screen light. */
export type LightProvider = ListedLightProvider | 'screen';

/** SPEC §3 Light device, as every driver lists it. */
export interface LightDeviceInfo {
  id: string;
  label: string;
  name?: string;
  type?: string;
  group?: { name?: string } | null;
  location?: { name?: string } | null;
  connected: boolean;
}

/** A look to show: `color.off` (black) or `on: false` switches the light off. */
export interface LightStateCommand {
  on: boolean;
  color: LightColor;
  /** 0-1. */
  brightness: number;
  transitionMs: number;
}

export type DriverEvent =
  /** The provider is no longer usable (401, revoked token, vanished bridge): pending work is dropped. */
  | { type: 'disconnect'; error: LightErrorInfo }
  /** Token or user switched: caches, throttles and queued requests were cleared. */
  | { type: 'reset' }
  | { type: 'error'; error: LightErrorInfo }
  | { type: 'warning'; message: string };

export type DriverListener = (event: DriverEvent) => void;

/** One interface for every light provider (DESIGN §2). Methods reject with a `LightError`. */
export interface LightDriver {
  readonly provider: LightProvider;
  listDevices(): Promise<LightDeviceInfo[]>;
  setState(ids: readonly string[], state: LightStateCommand): Promise<void>;
  /**
   * Plays one step of a core effect program now. Drivers with `nativeStrobe` send a strobe as one
   * command; for the others the player expands it into timed set-states.
   */
  playStep(ids: readonly string[], step: Exclude<LightStep, { kind: 'restore' }>): Promise<void>;
  readonly nativeStrobe: boolean;
  /** Shortest gap between two strobe changes this driver can show on `count` lights. */
  minStrobeHalfPeriodMs(count: number): number;
  /** Drops every queued command (a new flag supersedes them). */
  cancelPending(): void;
  subscribe(listener: DriverListener): () => void;
}

export class DriverEvents {
  private readonly listeners = new Set<DriverListener>();

  subscribe(listener: DriverListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: DriverEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

/** True when the look turns the light off (black, or `on: false`). */
export function isOff(state: LightStateCommand): boolean {
  return !state.on || state.color.off === true;
}
