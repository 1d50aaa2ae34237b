// What the WLED driver takes and what it offers beside the shared driver interface.
import type { LightDeviceInfo, LightDriver } from '../../driver.js';
import type { Timers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';
import type { WledAddress } from './http.js';
import type { WledEffectIds, WledInfo } from './looks.js';

/** An unreachable device is asked again this often (`GET /json/info`), and sent its last look when it answers. */
export const WLED_PROBE_INTERVAL_MS = 2_000;
/** An idle device is read this often, so one that left the network is reported without a flag. */
export const WLED_HEALTH_INTERVAL_MS = 30_000;
/** A busy device (503, WLED 0.15+) gets the same write once more after this pause (its `Retry-After: 1`). */
export const WLED_BUSY_RETRY_MS = 1_000;
/** A flash effect runs until the next look; none this long after the strobe's length: set solid. */
export const WLED_STROBE_GUARD_MS = 1_000;
/** A device without a flash effect flashes by paced writes: at most 4 a second (an ESP8266 takes ~10). */
export const WLED_PACED_HALF_PERIOD_MS = 250;

export interface WledDriverOptions {
  addresses: readonly WledAddress[];
  timers?: Timers;
  timeoutMs?: number;
  probeIntervalMs?: number;
  busyRetryMs?: number;
  strobeGuardMs?: number;
  /** Between two reads of an idle, reachable device; 0 = never. Default 30 s. */
  healthIntervalMs?: number;
  /** Log lines quote what devices say as they said it: the receiver escapes them (`escapeLogText`). */
  onLog?: (message: string) => void;
}

export interface WledDeviceView {
  id: string;
  address: WledAddress;
  info: WledInfo | null;
  effects: WledEffectIds | null;
  reachable: boolean;
}

export interface WledDriver extends LightDriver, RoomStateDriver {
  readonly provider: 'wled';
  /** Reads every device (info, effect list) and returns them. */
  connect(): Promise<LightDeviceInfo[]>;
  discover(): Promise<LightDeviceInfo[]>;
  /**
   * Adds addresses found later (a LAN scan); an address already known, or a known MAC, is not added
   * twice. A known MAC at a new address is driven there only while its own address is silent.
   */
  addAddresses(addresses: readonly WledAddress[]): Promise<LightDeviceInfo[]>;
  devices(): WledDeviceView[];
  /** Requests in flight (at most one per device). */
  inFlight(): number;
  close(): Promise<void>;
}
