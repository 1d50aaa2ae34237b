import { HUE_FLAG_DURATION_MS, type EffectFlag } from '@flaglight/core';
import {
  createHueDriver,
  createHueRemoteTransport,
  isHueDisconnectError,
  systemTimers,
  TargetScheduler,
  toLightErrorInfo,
  type HueDriver,
  type HueRemoteTransport,
} from '@flaglight/lights';
import { ApiError } from '../api/client';
import type { EngineContext } from './engine-context';
import { disconnectHue, fetchHueStatus } from './hue-api';
import { errorText } from './lights-engine-options';
import { LIGHTS_TEXTS as T } from './lights-texts';
import { EMPTY_PROVIDER as EMPTY, isProviderConnected, type ProviderSnapshots } from './provider-store';

/** Philips Hue through the app server's remote routes (the OAuth tokens stay on the server), into the Hue store. */
export class HueConnection {
  readonly driver: HueDriver;
  private readonly transport: HueRemoteTransport;
  /** Hue flags go to the server (SPEC §7 POST /hue/lights/flag), which plays the effect on the bridge. */
  readonly flags = new TargetScheduler(systemTimers);
  /** True while this connection itself disconnects Hue (its event then carries no error to show). */
  private dropping = false;

  constructor(private readonly context: EngineContext) {
    this.transport = createHueRemoteTransport({ token: context.options.sessionToken });
    this.driver = createHueDriver({ transport: this.transport });
  }

  private set(patch: Partial<ProviderSnapshots['hue']>): void {
    this.context.update('hue', patch);
  }

  /** Follows the driver's disconnects; returns the unsubscribe. */
  listen(): () => void {
    return this.driver.subscribe((event) => {
      if (event.type !== 'disconnect' || this.dropping) return;
      if (!isHueDisconnectError(event.error)) return;
      void this.markRefused(event.error.message);
    });
  }

  /** A new user: Hue shows as connecting until the server's status is known. */
  reset(): void {
    this.set({ ...EMPTY, hasApplicationKey: false, status: 'connecting' });
  }

  /** Plays a flag on the selected lights (or on `ids`, lights that join mid-race). */
  sendFlag(flag: EffectFlag, options: { test?: boolean; ids?: string[] } = {}): void {
    const { ids = this.context.selectedIds('hue'), ...sendOptions } = options;
    if (ids.length === 0) {
      // Selected lights being read ("as it was", added mid-session) take the flag once read.
      if (this.context.providers.hue.getSnapshot().selectedIds.length === 0)
        this.context.options.notify.warning(`No devices selected for ${flag}: skipped`);
      return;
    }
    this.transport.sendFlag(ids, flag, HUE_FLAG_DURATION_MS, sendOptions).catch((error: unknown) => {
      const info = toLightErrorInfo(error, T.hueCommandFailed);
      this.context.toastError(info.message);
      // SPEC §8: 'not connected' or 'unauthorized' marks the bridge provider disconnected.
      if (isHueDisconnectError(info)) void this.markRefused(info.message);
    });
  }

  /**
   * SPEC §8: an error with 'not connected' or 'unauthorized' marks the bridge provider
   * disconnected at once; the server's status then tells whether Hue needs signing in again or
   * only a new application key (the server forgets a key the bridge refused). The message stays.
   */
  async markRefused(message: string): Promise<void> {
    this.flags.cancelAll();
    this.drop();
    this.set({ ...EMPTY, hasApplicationKey: false, error: message });
    await this.check({ loadLights: false, error: message });
  }

  /**
   * Asks the server whether the Hue account is connected, into the Hue store; lists the lights
   * when asked to. `error` is kept on show (the message that led to this check).
   */
  async check({ loadLights = true, error: keptError = null as string | null } = {}): Promise<void> {
    const epoch = this.context.epoch();
    this.set({
      status: isProviderConnected(this.context.providers.hue.getSnapshot()) ? 'connected' : 'connecting',
    });
    let connected: boolean;
    let hasApplicationKey: boolean;
    try {
      ({ connected, hasApplicationKey } = await fetchHueStatus());
    } catch (error) {
      if (epoch !== this.context.epoch()) return;
      // A server without the Hue routes (404) simply has no Hue connection to offer.
      const missing = error instanceof ApiError && error.code === 'not_found';
      this.set({
        ...EMPTY,
        hasApplicationKey: false,
        error: missing ? null : errorText(error, T.hueNotConnected),
      });
      return;
    }
    if (epoch !== this.context.epoch()) return;
    if (!connected) {
      this.drop();
      this.set({ ...EMPTY, hasApplicationKey: false, error: keptError });
      return;
    }
    if (!hasApplicationKey) this.drop();
    this.set({
      status: 'connected',
      error: keptError,
      hasApplicationKey,
      // Without a key the lights cannot be reached: none are listed until a new key is stored.
      ...(hasApplicationKey ? {} : { devices: [], devicesLoaded: false, loadingDevices: false }),
    });
    if (loadLights && hasApplicationKey) await this.loadLights();
  }

  async loadLights(): Promise<void> {
    const epoch = this.context.epoch();
    this.set({ loadingDevices: true });
    try {
      const devices = await this.driver.connect();
      if (epoch !== this.context.epoch()) return;
      this.set({
        status: 'connected',
        hasApplicationKey: true,
        devices,
        devicesLoaded: true,
        loadingDevices: false,
        error: null,
      });
      this.context.options.onDevicesLoaded?.(
        'hue',
        devices.map((d) => d.id),
      );
    } catch (error) {
      if (epoch !== this.context.epoch()) return;
      const message = errorText(error, T.hueFetchLightsFailed);
      // SPEC §8: 'not connected' or 'unauthorized' marks the bridge provider disconnected.
      if (isHueDisconnectError(toLightErrorInfo(error, T.hueFetchLightsFailed)))
        await this.markRefused(message);
      else this.set({ loadingDevices: false, error: T.hueFetchLightsFailed });
    }
  }

  async disconnect(): Promise<void> {
    this.flags.cancelAll();
    try {
      await disconnectHue();
    } finally {
      this.drop();
      this.set({ ...EMPTY, hasApplicationKey: false });
    }
  }

  drop(): void {
    if (!this.driver.connected) return;
    this.dropping = true;
    try {
      this.driver.disconnect();
    } finally {
      this.dropping = false;
    }
  }

  /** Marks Hue as failed with a message (OAuth errors), without touching the server. */
  fail(message: string): void {
    this.set({
      error: message,
      status: isProviderConnected(this.context.providers.hue.getSnapshot()) ? 'connected' : 'disconnected',
    });
  }
}
