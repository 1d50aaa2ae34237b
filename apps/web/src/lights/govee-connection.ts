import { createTestProgram, DEFAULT_LOOK_SET, type EffectFlag } from '@flaglight/core';
import {
  createGoveeCloudDriver,
  isGoveeDisconnectError,
  systemTimers,
  TargetScheduler,
  toLightErrorInfo,
  type GoveeCloudDriver,
} from '@flaglight/lights';
import { ApiError } from '../api/client';
import type { EngineContext } from './engine-context';
import { connectGovee, disconnectGovee, fetchGoveeStatus } from './govee-api';
import { errorText } from './lights-engine-options';
import { LIGHTS_TEXTS as T } from './lights-texts';
import { EMPTY_PROVIDER as EMPTY, type ProviderSnapshots } from './provider-store';

/**
 * Govee's cloud through the app's server (the key stays sealed there), into the Govee store. The
 * server shows each flag's settled colour within Govee's budget.
 */
export class GoveeConnection {
  readonly driver: GoveeCloudDriver;
  readonly flags = new TargetScheduler(systemTimers);
  /** The last "not sent" note shown for Govee (the same note is not shown again for every flag). */
  private note: string | null = null;
  /** The last race flag sent (what a test goes back to). */
  private lastFlag: EffectFlag | null = null;
  /** The pending return after a test; a newer flag replaces it. */
  private restore: number | null = null;

  constructor(private readonly context: EngineContext) {
    this.driver = createGoveeCloudDriver({ token: context.options.sessionToken });
  }

  private set(patch: Partial<ProviderSnapshots['govee']>): void {
    this.context.update('govee', patch);
  }

  /** Follows the driver's disconnects; returns the unsubscribe. */
  listen(): () => void {
    return this.driver.subscribe((event) => {
      if (event.type === 'disconnect' && isGoveeDisconnectError(event.error))
        this.markRefused(event.error.message);
    });
  }

  /** A new user: Govee shows as connecting until the server's status is known. */
  reset(): void {
    this.set({ ...EMPTY, status: 'connecting' });
    this.note = null;
    this.lastFlag = null;
    this.restore = null;
  }

  /**
   * A test: its flag now, then the race's last flag again once the test is over (Govee's cloud shows
   * settled colours only, so sending that flag again is its look). A race flag meanwhile cancels it.
   */
  sendTest(flag: EffectFlag): void {
    const test = createTestProgram(flag, this.context.options.looks?.());
    if (!test.ok || this.isLeft(flag)) return;
    const back = this.lastFlag;
    this.sendFlag(flag, { test: true });
    if (back === null) return;
    const restore = this.flags.at(Date.now() + test.program.durationMs, () => {
      if (this.restore === restore) this.sendFlag(back);
    });
    this.restore = restore;
  }

  /**
   * True when the account's looks leave this flag alone: nothing is sent (the server would skip it
   * too, and the day's budget is not spent asking) and the race's last flag stays what a test goes
   * back to.
   */
  private isLeft(flag: EffectFlag): boolean {
    return (this.context.options.looks?.() ?? DEFAULT_LOOK_SET).flags[flag].kind === 'leave';
  }

  /** Sends a flag to the selected lights, or to `ids` only (lights that join mid-race). */
  sendFlag(flag: EffectFlag, options: { test?: boolean; ids?: string[] } = {}): void {
    if (this.isLeft(flag)) return;
    if (!options.test && !options.ids) {
      this.lastFlag = flag;
      this.restore = null;
    }
    const ids = options.ids ?? this.context.selectedIds('govee');
    if (ids.length === 0) {
      // Selected lights being read ("as it was", added mid-session) take the flag once read.
      if (this.context.providers.govee.getSnapshot().selectedIds.length === 0)
        this.context.options.notify.warning(`No devices selected for ${flag}: skipped`);
      return;
    }
    this.driver
      .sendFlag(ids, flag)
      .then((answer) => {
        // A flag the day's budget skips is said once per reason, not at every flag of the race.
        if (answer.sent) this.note = null;
        else if (answer.note !== this.note) {
          this.note = answer.note;
          this.context.options.notify.warning(`Govee: ${answer.note}`);
        }
      })
      .catch((error: unknown) => {
        // A refused key is reported by the driver's disconnect event.
        const info = toLightErrorInfo(error, T.goveeCommandFailed);
        if (!isGoveeDisconnectError(info)) this.context.toastError(info.message);
      });
  }

  /**
   * Sends the key to the server, which checks it with Govee and keeps it sealed; then lists the
   * lights. The server's words explain a refusal (wrong key, Govee down, rate limited).
   */
  async connect(rawKey: string): Promise<boolean> {
    const key = rawKey.trim();
    if (key === '') return false;
    const epoch = this.context.epoch();
    this.set({ status: 'connecting', error: null });
    try {
      await connectGovee(key);
    } catch (error) {
      if (epoch !== this.context.epoch()) return false;
      const message = errorText(error, T.goveeConnectFailed);
      this.set({ ...EMPTY, error: message });
      this.context.toastError(message);
      return false;
    }
    if (epoch !== this.context.epoch()) return false;
    this.set({ status: 'connected', error: null });
    this.context.options.notify.success(T.goveeConnected);
    await this.loadLights();
    return true;
  }

  /** Asks the server whether the account has a Govee key; lists the lights when asked to. */
  async check({ loadLights = true } = {}): Promise<void> {
    const epoch = this.context.epoch();
    let connected: boolean;
    try {
      connected = await fetchGoveeStatus();
    } catch (error) {
      if (epoch !== this.context.epoch()) return;
      // A server without the Govee routes (404) simply has no Govee connection to offer.
      const missing = error instanceof ApiError && error.code === 'not_found';
      this.set({ ...EMPTY, error: missing ? null : errorText(error, T.goveeNotConnected) });
      return;
    }
    if (epoch !== this.context.epoch()) return;
    if (!connected) {
      this.set({ ...EMPTY });
      return;
    }
    this.set({ status: 'connected' });
    if (loadLights) await this.loadLights();
  }

  async loadLights(): Promise<void> {
    const epoch = this.context.epoch();
    this.set({ loadingDevices: true });
    try {
      const devices = await this.driver.connect();
      if (epoch !== this.context.epoch()) return;
      this.set({
        status: 'connected',
        devices,
        devicesLoaded: true,
        loadingDevices: false,
        error: null,
      });
      this.context.options.onDevicesLoaded?.(
        'govee',
        devices.map((d) => d.id),
      );
    } catch (error) {
      if (epoch !== this.context.epoch()) return;
      const info = toLightErrorInfo(error, T.goveeFetchLightsFailed);
      if (isGoveeDisconnectError(info)) this.markRefused(info.message);
      else this.set({ loadingDevices: false, error: info.message });
    }
  }

  /** The server has no usable key any more: Govee shows as disconnected, with the server's words. */
  markRefused(message: string): void {
    this.flags.cancelAll();
    this.set({ ...EMPTY, error: message });
  }

  async disconnect(): Promise<void> {
    this.flags.cancelAll();
    try {
      await disconnectGovee();
    } finally {
      this.set({ ...EMPTY });
    }
  }
}
