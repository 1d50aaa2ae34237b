// What the Nanoleaf driver takes and what it offers beside the shared driver interface.
import type { LightDeviceInfo, LightDriver } from '../../driver.js';
import type { Timers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';
import type { NanoleafAddress } from './http.js';
import type { NanoleafInfo } from './pairing.js';

/** An unreachable controller is asked again this often (`GET /`), and sent its last look when it answers. */
export const NANOLEAF_PROBE_INTERVAL_MS = 2_000;
/** An idle controller is read (`GET /`) this often, so one that left the network is reported without a flag. */
export const NANOLEAF_HEALTH_INTERVAL_MS = 30_000;
/**
 * A looping strobe effect is ended by the player's next look (SPEC §4: 0.5 s after the strobe). If
 * none comes this long after the strobe's own length (paused, or the flag's program cancelled), the
 * strobe's colour is set solid, so a controller never flashes on alone.
 */
export const NANOLEAF_STROBE_GUARD_MS = 1_000;
/** A device without panels (Essentials) flashes by paced `/state` writes: at most 4 a second. */
export const NANOLEAF_PACED_HALF_PERIOD_MS = 250;
/** A paired controller's address answers with another serial number: the driver stops there. */
export const NANOLEAF_SERIAL_CHANGED =
  'Nanoleaf controller serial number changed: this is not the controller Flaglight was paired with. Pair it again if you replaced it.';

export interface NanoleafDriverOptions {
  address: NanoleafAddress;
  token: string;
  /**
   * The id (serial number) and name stored at pairing: the device is listed (unreachable) before it
   * first answers, and an answer with another serial number stops the driver. Without it, the first
   * serial number read is the one expected.
   */
  known?: { id: string; name: string };
  timers?: Timers;
  timeoutMs?: number;
  probeIntervalMs?: number;
  /** After a strobe's length, how long a looping effect may run before it is set solid. Default 1 s. */
  strobeGuardMs?: number;
  /** Between two reads of an idle, reachable controller; 0 = never. Default 30 s. */
  healthIntervalMs?: number;
  /** Log lines quote what devices say as they said it: the receiver escapes them (`escapeLogText`). */
  onLog?: (message: string) => void;
}

export interface NanoleafDriver extends LightDriver, RoomStateDriver {
  readonly provider: 'nanoleaf';
  /** Whether the controller answered its last request. */
  readonly connected: boolean;
  /** False once the controller refused the token (401): it must be paired again. */
  readonly authorised: boolean;
  /** True once the address answered with another serial number than the paired one: pair again. */
  readonly replaced: boolean;
  /** Reads the controller again (name, panels) and returns it as the one device. */
  connect(): Promise<LightDeviceInfo[]>;
  discover(): Promise<LightDeviceInfo[]>;
  info(): NanoleafInfo | null;
  address(): NanoleafAddress;
  /** The controller was found at another address (DHCP): requests go there from now on. */
  moveTo(address: NanoleafAddress): void;
  /** Writes waiting behind the one in flight. */
  pendingCount(): number;
  close(): Promise<void>;
}
