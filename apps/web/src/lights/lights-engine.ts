import { createLightProgram, HUE_FLAG_DURATION_MS, type EffectFlag } from '@flaglight/core';
import {
  createEffectPlayer,
  createGoveeCloudDriver,
  createHueDriver,
  createHueRemoteTransport,
  createLifxCloudDriver,
  createScreenDriver,
  isGoveeDisconnectError,
  isHueDisconnectError,
  SCREEN_DEVICE_ID,
  systemTimers,
  TargetScheduler,
  toLightErrorInfo,
  type HueRemoteTransport,
  type EffectPlayer,
  type GoveeCloudDriver,
  type HueDriver,
  type LifxCloudDriver,
  type LightErrorInfo,
  type ScreenDriver,
} from '@flaglight/lights';
import { ApiError } from '../api/client';
import { connectGovee, disconnectGovee, fetchGoveeStatus } from './govee-api';
import { disconnectHue, fetchHueStatus } from './hue-api';
import type { DrivenProvider } from './lights-context';
import {
  createErrorToasts,
  errorText,
  SCREEN_MIN_STROBE_HALF_PERIOD_MS,
  type LightsEngineOptions,
} from './lights-engine-options';
import { LIGHTS_TEXTS as T } from './lights-texts';
import { createProviderStates, type ProviderStores } from './provider-states';
import {
  createProviderStore,
  EMPTY_PROVIDER as EMPTY,
  isProviderConnected,
  isProviderReady,
  type ProviderSnapshots,
} from './provider-store';

/**
 * Every light connection of one browser tab: the LIFX cloud driver (token in the browser), the Hue
 * driver through the app server's remote routes, Govee's cloud through the app server (key on the
 * server), the on-screen light, and an effect player for each. Each provider's connection state lives in its own store (`providers`), which React reads
 * with `useSyncExternalStore`; `session` says whether the connections are still being restored.
 */
export class LightsEngine {
  readonly lifx: LifxCloudDriver;
  readonly hue: HueDriver;
  readonly screen: ScreenDriver;
  /** Govee's cloud through the app's server, which shows each flag's settled colour within Govee's budget. */
  readonly govee: GoveeCloudDriver;
  private readonly goveeFlags = new TargetScheduler(systemTimers);
  /** The last "not sent" note shown for Govee (the same note is not shown again for every flag). */
  private goveeNote: string | null = null;
  private readonly hueTransport: HueRemoteTransport;
  /** Hue flags go to the server (SPEC §7 POST /hue/lights/flag), which plays the effect on the bridge. */
  private readonly hueFlags = new TargetScheduler(systemTimers);
  private readonly players: Record<'lifx' | 'screen', EffectPlayer>;
  private readonly states = createProviderStates(() => this.options.selection());
  readonly providers: ProviderStores = this.states.providers;
  readonly session = createProviderStore({ restoring: false });
  private readonly unsubscribe: (() => void)[] = [];
  /** Bumped on a user switch: answers for the previous user are ignored. */
  private epoch = 0;
  /** True while this engine itself disconnects Hue (its event then carries no error to show). */
  private droppingHue = false;

  private readonly errorToasts: ReturnType<typeof createErrorToasts>;

  constructor(private readonly options: LightsEngineOptions) {
    this.errorToasts = createErrorToasts(options.notify);
    this.lifx = createLifxCloudDriver({ baseUrl: options.lifxApiUrl });
    this.hueTransport = createHueRemoteTransport({ token: options.sessionToken });
    this.hue = createHueDriver({ transport: this.hueTransport });
    this.screen = createScreenDriver({ label: 'On-screen light' });
    this.govee = createGoveeCloudDriver({ token: options.sessionToken });
    const player = (driver: LifxCloudDriver | ScreenDriver, provider: 'lifx' | 'screen') =>
      createEffectPlayer({
        driver,
        devices: () =>
          provider === 'screen'
            ? (options.screenEnabled?.() ?? true)
              ? [SCREEN_DEVICE_ID]
              : []
            : this.selectedIds(provider),
        onWarning: (message) => options.notify.warning(message),
        onError: (error) => this.reportError(provider, error),
      });
    this.players = {
      lifx: player(this.lifx, 'lifx'),
      // WCAG 2.3.1: a page may flash at most 3 times a second, so the screen's strobes are slower
      // (same length, fewer flashes); the real lights keep SPEC §4's pace.
      screen: player(
        { ...this.screen, minStrobeHalfPeriodMs: () => SCREEN_MIN_STROBE_HALF_PERIOD_MS },
        'screen',
      ),
    };
    if (options.subscribeSelection)
      this.unsubscribe.push(options.subscribeSelection(() => this.states.reselect()));
    this.unsubscribe.push(
      this.lifx.subscribe((event) => {
        if (event.type !== 'disconnect' || event.error.kind !== 'auth') return;
        // SPEC §8: a 401 means the token is no good: it is forgotten and the provider disconnected.
        options.tokenStore.clear();
        this.setLifx({ ...EMPTY, hasToken: false, error: T.lifxInvalidToken });
        this.toastError(T.lifxInvalidToken);
      }),
      this.hue.subscribe((event) => {
        if (event.type !== 'disconnect' || this.droppingHue) return;
        if (!isHueDisconnectError(event.error)) return;
        void this.markHueRefused(event.error.message);
      }),
      this.govee.subscribe((event) => {
        if (event.type === 'disconnect' && isGoveeDisconnectError(event.error))
          this.markGoveeRefused(event.error.message);
      }),
    );
  }

  // --- stores -----------------------------------------------------------------------------

  private setLifx(patch: Partial<ProviderSnapshots['lifx']>): void {
    this.states.update('lifx', patch);
  }

  private setHue(patch: Partial<ProviderSnapshots['hue']>): void {
    this.states.update('hue', patch);
  }

  private setGovee(patch: Partial<ProviderSnapshots['govee']>): void {
    this.states.update('govee', patch);
  }

  selectedIds(provider: DrivenProvider): string[] {
    return [...this.providers[provider].getSnapshot().selectedIds];
  }

  /** SPEC §4: Hue when it is ready with a selected light, else LIFX on the same terms. */
  drivenProvider = (): DrivenProvider | null => this.states.drivenProvider();

  /** Listens to both providers' stores (whatever decides the driven provider). */
  subscribeProviders = (listener: () => void): (() => void) => this.states.subscribe(listener);

  /**
   * Plays a flag on the driven provider and on the on-screen light, now or at `atEpochMs`.
   * Returns false when no provider is ready (the screen still follows).
   */
  playFlag(flag: string, options: { atEpochMs?: number; only?: DrivenProvider } = {}): boolean {
    const program = createLightProgram(flag);
    if (!program.ok) {
      this.options.notify.warning(program.warning);
      return false;
    }
    const at = options.atEpochMs;
    const run = (player: EffectPlayer) =>
      at === undefined ? player.play(flag) : player.schedule(flag, at) !== null;
    run(this.players.screen);
    // Govee's lights are lights of their own: they follow every flag beside Hue or LIFX.
    const goveeReady = isProviderReady(this.providers.govee.getSnapshot());
    if (options.only === 'govee' || (!options.only && goveeReady)) {
      if (!goveeReady) return false;
      const goveeFlag = program.program.flag;
      if (at === undefined) this.sendGoveeFlag(goveeFlag);
      else this.goveeFlags.at(at, () => this.sendGoveeFlag(goveeFlag));
      if (options.only === 'govee') return true;
    } else if (!options.only) {
      this.goveeFlags.cancelAll();
    }
    const leading = this.drivenProvider();
    const driven = options.only ?? (leading === 'govee' ? null : leading);
    if (!driven) return goveeReady && !options.only;
    if (options.only && !isProviderReady(this.providers[driven].getSnapshot())) return false;
    // The provider not driven keeps nothing queued (it may have been driven a moment ago).
    if (driven === 'hue') {
      if (!options.only) this.players.lifx.cancelAll();
      if (at === undefined) this.sendHueFlag(program.program.flag);
      else this.hueFlags.at(at, () => this.sendHueFlag(program.program.flag));
      return true;
    }
    if (!options.only) this.hueFlags.cancelAll();
    return run(this.players.lifx);
  }

  private sendHueFlag(flag: EffectFlag): void {
    const ids = this.selectedIds('hue');
    if (ids.length === 0) {
      this.options.notify.warning(`No devices selected for ${flag}: skipped`);
      return;
    }
    this.hueTransport.sendFlag(ids, flag, HUE_FLAG_DURATION_MS).catch((error: unknown) => {
      const info = toLightErrorInfo(error, T.hueCommandFailed);
      this.toastError(info.message);
      // SPEC §8: 'not connected' or 'unauthorized' marks the bridge provider disconnected.
      if (isHueDisconnectError(info)) void this.markHueRefused(info.message);
    });
  }

  private sendGoveeFlag(flag: EffectFlag): void {
    const ids = this.selectedIds('govee');
    if (ids.length === 0) {
      this.options.notify.warning(`No devices selected for ${flag}: skipped`);
      return;
    }
    this.govee
      .sendFlag(ids, flag)
      .then((answer) => {
        // A flag the day's budget skips is said once per reason, not at every flag of the race.
        if (answer.sent) this.goveeNote = null;
        else if (answer.note !== this.goveeNote) {
          this.goveeNote = answer.note;
          this.options.notify.warning(`Govee: ${answer.note}`);
        }
      })
      .catch((error: unknown) => {
        // A refused key is reported by the driver's disconnect event.
        const info = toLightErrorInfo(error, T.goveeCommandFailed);
        if (!isGoveeDisconnectError(info)) this.toastError(info.message);
      });
  }

  cancelPending(): void {
    Object.values(this.players).forEach((player) => player.cancelAll());
    this.hueFlags.cancelAll();
    this.goveeFlags.cancelAll();
  }

  private reportError(provider: 'lifx' | 'screen', error: LightErrorInfo): void {
    // A 401 is reported once, by the driver's disconnect event.
    if (error.kind === 'auth' && provider === 'lifx') return;
    this.toastError(error.message);
  }

  private toastError(message: string): void {
    this.errorToasts.show(message);
  }

  // --- session ----------------------------------------------------------------------------

  /**
   * A new user (or none): every cache, throttle, queued request and pending effect of the previous
   * one is dropped (SPEC §4 Session), then the saved providers reconnect when `autoConnect` is on.
   */
  async start(autoConnect: boolean): Promise<void> {
    this.epoch += 1;
    const epoch = this.epoch;
    this.cancelPending();
    const token = this.options.tokenStore.read();
    this.lifx.setToken(null);
    this.dropHue();
    this.setLifx({ ...EMPTY, hasToken: token !== null });
    this.setHue({ ...EMPTY, hasApplicationKey: false, status: 'connecting' });
    this.setGovee({ ...EMPTY, status: 'connecting' });
    this.goveeNote = null;
    this.session.set({ restoring: true });
    await Promise.allSettled([
      token && autoConnect ? this.connectLifx(token, { quiet: true }) : Promise.resolve(),
      this.checkHue({ loadLights: autoConnect }),
      this.checkGovee({ loadLights: autoConnect }),
    ]);
    if (epoch === this.epoch) this.session.set({ restoring: false });
  }

  // --- LIFX -------------------------------------------------------------------------------

  /** Validates the token by listing the devices; stores it on success. */
  async connectLifx(rawToken: string, { quiet = false } = {}): Promise<boolean> {
    const token = rawToken.trim();
    if (token === '') return false;
    const epoch = this.epoch;
    this.setLifx({ status: 'connecting', loadingDevices: true, error: null });
    this.lifx.setToken(token);
    try {
      const devices = await this.lifx.connect();
      if (epoch !== this.epoch) return false;
      this.options.tokenStore.write(token);
      this.setLifx({
        status: 'connected',
        devices,
        devicesLoaded: true,
        loadingDevices: false,
        error: null,
        hasToken: true,
      });
      this.options.onDevicesLoaded?.(
        'lifx',
        devices.map((d) => d.id),
      );
      if (!quiet) this.options.notify.success(T.lifxConnected);
      return true;
    } catch (error) {
      if (epoch !== this.epoch) return false;
      const info = toLightErrorInfo(error, T.lifxConnectFailed);
      if (info.kind !== 'auth') {
        // The 401 path already reset everything (driver disconnect event).
        this.lifx.setToken(null);
        this.setLifx({ ...EMPTY, hasToken: this.options.tokenStore.read() !== null, error: info.message });
        if (!quiet) this.toastError(info.message);
      }
      return false;
    }
  }

  /** Lists the devices again with the current token. */
  async refreshLifx(): Promise<void> {
    if (!isProviderConnected(this.providers.lifx.getSnapshot())) return;
    const epoch = this.epoch;
    this.setLifx({ loadingDevices: true });
    try {
      const devices = await this.lifx.listDevices();
      if (epoch !== this.epoch) return;
      this.setLifx({ devices, devicesLoaded: true, loadingDevices: false, error: null });
      this.options.onDevicesLoaded?.(
        'lifx',
        devices.map((d) => d.id),
      );
    } catch (error) {
      if (epoch !== this.epoch) return;
      const info = toLightErrorInfo(error, T.lifxConnectFailed);
      if (info.kind !== 'auth') this.setLifx({ loadingDevices: false, error: info.message });
    }
  }

  /** SPEC §4 Session: forgets the token, the device cache, throttles, queue and pending effects. */
  disconnectLifx(): void {
    this.players.lifx.cancelAll();
    this.lifx.disconnect();
    this.options.tokenStore.clear();
    this.setLifx({ ...EMPTY, hasToken: false });
  }

  // --- Hue --------------------------------------------------------------------------------

  /**
   * SPEC §8: an error with 'not connected' or 'unauthorized' marks the bridge provider
   * disconnected at once; the server's status then tells whether Hue needs signing in again or
   * only a new application key (the server forgets a key the bridge refused). The message stays.
   */
  async markHueRefused(message: string): Promise<void> {
    this.hueFlags.cancelAll();
    this.dropHue();
    this.setHue({ ...EMPTY, hasApplicationKey: false, error: message });
    await this.checkHue({ loadLights: false, error: message });
  }

  /**
   * Asks the server whether the Hue account is connected, into the Hue store; lists the lights
   * when asked to. `error` is kept on show (the message that led to this check).
   */
  async checkHue({ loadLights = true, error: keptError = null as string | null } = {}): Promise<void> {
    const epoch = this.epoch;
    this.setHue({
      status: isProviderConnected(this.providers.hue.getSnapshot()) ? 'connected' : 'connecting',
    });
    let connected: boolean;
    let hasApplicationKey: boolean;
    try {
      ({ connected, hasApplicationKey } = await fetchHueStatus());
    } catch (error) {
      if (epoch !== this.epoch) return;
      // A server without the Hue routes (404) simply has no Hue connection to offer.
      const missing = error instanceof ApiError && error.code === 'not_found';
      this.setHue({
        ...EMPTY,
        hasApplicationKey: false,
        error: missing ? null : errorText(error, T.hueNotConnected),
      });
      return;
    }
    if (epoch !== this.epoch) return;
    if (!connected) {
      this.dropHue();
      this.setHue({ ...EMPTY, hasApplicationKey: false, error: keptError });
      return;
    }
    if (!hasApplicationKey) this.dropHue();
    this.setHue({
      status: 'connected',
      error: keptError,
      hasApplicationKey,
      // Without a key the lights cannot be reached: none are listed until a new key is stored.
      ...(hasApplicationKey ? {} : { devices: [], devicesLoaded: false, loadingDevices: false }),
    });
    if (loadLights && hasApplicationKey) await this.loadHueLights();
  }

  async loadHueLights(): Promise<void> {
    const epoch = this.epoch;
    this.setHue({ loadingDevices: true });
    try {
      const devices = await this.hue.connect();
      if (epoch !== this.epoch) return;
      this.setHue({
        status: 'connected',
        hasApplicationKey: true,
        devices,
        devicesLoaded: true,
        loadingDevices: false,
        error: null,
      });
      this.options.onDevicesLoaded?.(
        'hue',
        devices.map((d) => d.id),
      );
    } catch (error) {
      if (epoch !== this.epoch) return;
      const message = errorText(error, T.hueFetchLightsFailed);
      // SPEC §8: 'not connected' or 'unauthorized' marks the bridge provider disconnected.
      if (isHueDisconnectError(toLightErrorInfo(error, T.hueFetchLightsFailed)))
        await this.markHueRefused(message);
      else this.setHue({ loadingDevices: false, error: T.hueFetchLightsFailed });
    }
  }

  async disconnectHue(): Promise<void> {
    this.hueFlags.cancelAll();
    try {
      await disconnectHue();
    } finally {
      this.dropHue();
      this.setHue({ ...EMPTY, hasApplicationKey: false });
    }
  }

  private dropHue(): void {
    if (!this.hue.connected) return;
    this.droppingHue = true;
    try {
      this.hue.disconnect();
    } finally {
      this.droppingHue = false;
    }
  }

  /** Marks Hue as failed with a message (OAuth errors), without touching the server. */
  failHue(message: string): void {
    this.setHue({
      error: message,
      status: isProviderConnected(this.providers.hue.getSnapshot()) ? 'connected' : 'disconnected',
    });
  }

  // --- Govee (cloud, through the server) -------------------------------------------------

  /**
   * Sends the key to the server, which checks it with Govee and keeps it sealed; then lists the
   * lights. The server's words explain a refusal (wrong key, Govee down, rate limited).
   */
  async connectGovee(rawKey: string): Promise<boolean> {
    const key = rawKey.trim();
    if (key === '') return false;
    const epoch = this.epoch;
    this.setGovee({ status: 'connecting', error: null });
    try {
      await connectGovee(key);
    } catch (error) {
      if (epoch !== this.epoch) return false;
      const message = errorText(error, T.goveeConnectFailed);
      this.setGovee({ ...EMPTY, error: message });
      this.toastError(message);
      return false;
    }
    if (epoch !== this.epoch) return false;
    this.setGovee({ status: 'connected', error: null });
    this.options.notify.success(T.goveeConnected);
    await this.loadGoveeLights();
    return true;
  }

  /** Asks the server whether the account has a Govee key; lists the lights when asked to. */
  async checkGovee({ loadLights = true } = {}): Promise<void> {
    const epoch = this.epoch;
    let connected: boolean;
    try {
      connected = await fetchGoveeStatus();
    } catch (error) {
      if (epoch !== this.epoch) return;
      // A server without the Govee routes (404) simply has no Govee connection to offer.
      const missing = error instanceof ApiError && error.code === 'not_found';
      this.setGovee({ ...EMPTY, error: missing ? null : errorText(error, T.goveeNotConnected) });
      return;
    }
    if (epoch !== this.epoch) return;
    if (!connected) {
      this.setGovee({ ...EMPTY });
      return;
    }
    this.setGovee({ status: 'connected' });
    if (loadLights) await this.loadGoveeLights();
  }

  async loadGoveeLights(): Promise<void> {
    const epoch = this.epoch;
    this.setGovee({ loadingDevices: true });
    try {
      const devices = await this.govee.connect();
      if (epoch !== this.epoch) return;
      this.setGovee({
        status: 'connected',
        devices,
        devicesLoaded: true,
        loadingDevices: false,
        error: null,
      });
      this.options.onDevicesLoaded?.(
        'govee',
        devices.map((d) => d.id),
      );
    } catch (error) {
      if (epoch !== this.epoch) return;
      const info = toLightErrorInfo(error, T.goveeFetchLightsFailed);
      if (isGoveeDisconnectError(info)) this.markGoveeRefused(info.message);
      else this.setGovee({ loadingDevices: false, error: info.message });
    }
  }

  /** The server has no usable key any more: Govee shows as disconnected, with the server's words. */
  markGoveeRefused(message: string): void {
    this.goveeFlags.cancelAll();
    this.setGovee({ ...EMPTY, error: message });
  }

  async disconnectGovee(): Promise<void> {
    this.goveeFlags.cancelAll();
    try {
      await disconnectGovee();
    } finally {
      this.setGovee({ ...EMPTY });
    }
  }

  dispose(): void {
    this.epoch += 1;
    this.unsubscribe.forEach((fn) => fn());
    this.hueFlags.cancelAll();
    this.goveeFlags.cancelAll();
    Object.values(this.players).forEach((player) => player.dispose());
  }
}
