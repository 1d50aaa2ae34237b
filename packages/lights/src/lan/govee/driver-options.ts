import type { LightDeviceInfo, LightDriver } from '../../driver.js';
import type { Timers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';
import type { GoveeIgnoredReplies } from './reply-gate.js';

export {
  GOVEE_LAN_IGNORED_LOG_INTERVAL_MS,
  GOVEE_LAN_MAX_DATAGRAM_BYTES,
  GOVEE_LAN_REPLY_WINDOW_MS,
  type GoveeIgnoredReplies,
} from './reply-gate.js';
export { GOVEE_LAN_MAX_FIELD_LENGTH } from './sanitize.js';

/** No documented rate; streamers send 20–40 a second (reference §2.1): 25 a second per device. */
export const GOVEE_LAN_MIN_GAP_MS = 40;
/** UDP has no acknowledgement: the last command of a change goes again after this long (§2.1). */
export const GOVEE_LAN_REPEAT_AFTER_MS = 200;
/** How long a `devStatus` answer is waited for before the look is sent again. */
export const GOVEE_LAN_STATUS_TIMEOUT_MS = 1_000;
/** Tries of one look (commands, repeat, status) before the device is reported. */
export const GOVEE_LAN_ATTEMPTS = 3;
export const GOVEE_LAN_SCAN_WINDOW_MS = 1_000;
/** Clients rescan every 10–60 s (§2.1); a device that misses 3 scans in a row is reported. */
export const GOVEE_LAN_RESCAN_INTERVAL_MS = 10_000;
export const GOVEE_LAN_MISSED_SCANS = 3;
/** A device that misses this many scans in a row (about a minute) is dropped from the list. */
export const GOVEE_LAN_EXPIRE_AFTER_SCANS = 6;
/** The most devices one driver follows: a new one beyond this is ignored (a flood of forged replies). */
export const GOVEE_LAN_MAX_DEVICES = 64;
/**
 * The shortest flash: reference §4 keeps Govee's white/off steps at ≥ 0.2 s (its tolerance of
 * faster changes is unverified), and an "on" step costs three paced datagrams (turn, brightness,
 * colorwc: 80 ms at the 40 ms pace), so at 200 ms each flash is shown before the next replaces it.
 */
export const GOVEE_LAN_MIN_STROBE_HALF_PERIOD_MS = 200;

/** Shown when a scan finds nothing: a device with LAN Control off stays silent (§2.1). */
export const GOVEE_LAN_CONTROL_ADVICE =
  'No Govee device answered on the LAN. Switch on "LAN Control" in the Govee Home app for each device ' +
  '(open the device, then its settings), then search again.';

export interface GoveeLanTarget {
  host: string;
  port: number;
}

export interface GoveeLanPorts {
  /** Where the scan goes (4001). */
  scan: number;
  /** The port this driver listens on: scan and status replies come to the requester's IP here (4002). */
  listen: number;
  /** Where commands go (4003). */
  command: number;
}

export interface GoveeLanDriverOptions {
  /** Unicast scan targets (tests and demo: 127.0.0.1 and the simulator's scan port). */
  targets?: readonly GoveeLanTarget[];
  /** Also the real scan to 239.255.255.250 at the scan port. Only when a user asks for it. */
  multicast?: boolean;
  ports?: Partial<GoveeLanPorts>;
  /**
   * Loopback simulators: every device is 127.0.0.1, told apart by port, so commands go to the port
   * a device's scan reply came from (and status replies are matched by address and port).
   */
  commandPortFromReply?: boolean;
  /** Default 0.0.0.0; tests and demo pass 127.0.0.1. */
  bindAddress?: string;
  /**
   * Addresses whose scan replies are taken besides private and link-local ones on a local
   * interface's subnet; default the targets' hosts (tests and demo: 127.0.0.1). Loopback and
   * public addresses are taken only when listed here.
   */
  allowedSources?: readonly string[];
  timers?: Timers;
  /** Log lines quote what devices say as they said it: the receiver escapes them (`escapeLogText`). */
  onLog?: (message: string) => void;
  /**
   * Tuning (tests): scan window, reply window, re-scan (0 = never), pace, repeat, status wait, tries,
   * missed scans before unreachable and before removal, device cap.
   */
  scanWindowMs?: number;
  replyWindowMs?: number;
  rescanIntervalMs?: number;
  minGapMs?: number;
  repeatAfterMs?: number;
  statusTimeoutMs?: number;
  attempts?: number;
  missedScans?: number;
  expireAfterScans?: number;
  maxDevices?: number;
}

/** A Govee device as `devices()` shows it. */
export interface GoveeLanLightInfo {
  id: string;
  sku: string;
  label: string;
  address: string;
  port: number;
  reachable: boolean;
  /** The look asked for last (`#rrggbb`, brightness applied; black when off). */
  lastColor: string | null;
  /** Whether the last look was read back from the device. */
  confirmed: boolean;
  /** Datagrams sent to it so far. */
  sent: number;
}

export interface GoveeLanDriver extends LightDriver, RoomStateDriver {
  readonly provider: 'govee_lan';
  /** Scans again and returns the devices known so far. */
  discover(): Promise<LightDeviceInfo[]>;
  devices(): GoveeLanLightInfo[];
  /** The port replies come to, once the socket is open (null before). */
  listenPort(): number | null;
  /** True when the last finished scan found no device at all (show {@link GOVEE_LAN_CONTROL_ADVICE}). */
  scanFoundNothing(): boolean;
  /** Replies ignored so far, by reason (diagnostics). */
  ignoredReplies(): GoveeIgnoredReplies;
  close(): Promise<void>;
}
