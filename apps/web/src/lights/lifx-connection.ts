import { createLifxCloudDriver, toLightErrorInfo, type LifxCloudDriver } from '@flaglight/lights';
import type { EngineContext } from './engine-context';
import { LIGHTS_TEXTS as T } from './lights-texts';
import { EMPTY_PROVIDER as EMPTY, isProviderConnected, type ProviderSnapshots } from './provider-store';

/** LIFX through its cloud, with the token kept in the browser (SPEC §3), into the LIFX store. */
export class LifxConnection {
  readonly driver: LifxCloudDriver;

  constructor(private readonly context: EngineContext) {
    this.driver = createLifxCloudDriver({ baseUrl: context.options.lifxApiUrl });
  }

  private set(patch: Partial<ProviderSnapshots['lifx']>): void {
    this.context.update('lifx', patch);
  }

  /** Follows the driver's disconnects; returns the unsubscribe. */
  listen(): () => void {
    return this.driver.subscribe((event) => {
      if (event.type !== 'disconnect' || event.error.kind !== 'auth') return;
      // SPEC §8: a 401 means the token is no good: it is forgotten and the provider disconnected.
      this.context.options.tokenStore.clear();
      this.set({ ...EMPTY, hasToken: false, error: T.lifxInvalidToken });
      this.context.toastError(T.lifxInvalidToken);
    });
  }

  /** A new user: nothing listed, only whether a token is saved. */
  reset(hasToken: boolean): void {
    this.set({ ...EMPTY, hasToken });
  }

  /** Validates the token by listing the devices; stores it on success. */
  async connect(rawToken: string, { quiet = false } = {}): Promise<boolean> {
    const token = rawToken.trim();
    if (token === '') return false;
    const { options } = this.context;
    const epoch = this.context.epoch();
    this.set({ status: 'connecting', loadingDevices: true, error: null });
    this.driver.setToken(token);
    try {
      const devices = await this.driver.connect();
      if (epoch !== this.context.epoch()) return false;
      options.tokenStore.write(token);
      this.set({
        status: 'connected',
        devices,
        devicesLoaded: true,
        loadingDevices: false,
        error: null,
        hasToken: true,
      });
      options.onDevicesLoaded?.(
        'lifx',
        devices.map((d) => d.id),
      );
      if (!quiet) options.notify.success(T.lifxConnected);
      return true;
    } catch (error) {
      if (epoch !== this.context.epoch()) return false;
      const info = toLightErrorInfo(error, T.lifxConnectFailed);
      if (info.kind !== 'auth') {
        // The 401 path already reset everything (driver disconnect event).
        this.driver.setToken(null);
        this.set({ ...EMPTY, hasToken: options.tokenStore.read() !== null, error: info.message });
        if (!quiet) this.context.toastError(info.message);
      }
      return false;
    }
  }

  /** Lists the devices again with the current token. */
  async refresh(): Promise<void> {
    if (!isProviderConnected(this.context.providers.lifx.getSnapshot())) return;
    const epoch = this.context.epoch();
    this.set({ loadingDevices: true });
    try {
      const devices = await this.driver.listDevices();
      if (epoch !== this.context.epoch()) return;
      this.set({ devices, devicesLoaded: true, loadingDevices: false, error: null });
      this.context.options.onDevicesLoaded?.(
        'lifx',
        devices.map((d) => d.id),
      );
    } catch (error) {
      if (epoch !== this.context.epoch()) return;
      const info = toLightErrorInfo(error, T.lifxConnectFailed);
      if (info.kind !== 'auth') this.set({ loadingDevices: false, error: info.message });
    }
  }

  /** Forgets the token and the device cache (the engine drops the queued effects first). */
  disconnect(): void {
    this.driver.disconnect();
    this.context.options.tokenStore.clear();
    this.set({ ...EMPTY, hasToken: false });
  }
}
