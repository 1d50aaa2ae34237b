import type { LightDeviceInfo, LightDriver } from '../../driver.js';
import type { Timers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';

/** LIFX: at most 20 messages a second to one device (reference/lan-lights.md §1.7). */
export const LIFX_LAN_MIN_GAP_MS = 50;
/** A set is sent again after this long without its acknowledgement (aiolifx's defaults, §1.7). */
export const LIFX_LAN_RESEND_AFTER_MS = 500;
export const LIFX_LAN_ATTEMPTS = 3;
export const LIFX_LAN_DISCOVERY_WINDOW_MS = 1_000;
/** A quiet re-scan finds bulbs that moved (new address or port) or joined. */
export const LIFX_LAN_RESCAN_INTERVAL_MS = 60_000;
/** An unreachable bulb is probed with EchoRequest this often, and re-discovered every 5th probe. */
export const LIFX_LAN_PROBE_INTERVAL_MS = 2_000;

export interface LanTarget {
  host: string;
  port: number;
}

export interface LifxLanDriverOptions {
  /**
   * Where GetService goes (tests and demo: 127.0.0.1 and the simulator's discovery port). Unicast,
   * or a directed broadcast (`192.168.1.255`) on multi-homed PCs, which the caller names.
   */
  targets: readonly LanTarget[];
  /** Also the real scan: tagged GetService to 255.255.255.255:56700. Only when a user asks for it. */
  broadcast?: boolean;
  /** Default 0.0.0.0; tests pass 127.0.0.1. The port is always ephemeral (never 56700). */
  bindAddress?: string;
  /** How long a scan listens for StateService. Default 1 s. */
  discoveryWindowMs?: number;
  /** A strobe as SetColor + one SetWaveformOptional (default true); false lets the player expand it. */
  nativeStrobe?: boolean;
  timers?: Timers;
  /** Log lines quote what devices say as they said it: the receiver escapes them (`escapeLogText`). */
  onLog?: (message: string) => void;
  /** Tuning (tests): pace, resend, attempts, re-scan (0 = never) and probe intervals. */
  minGapMs?: number;
  resendAfterMs?: number;
  attempts?: number;
  rescanIntervalMs?: number;
  probeIntervalMs?: number;
}

/** A LAN bulb as `devices()` shows it. */
export interface LanLightInfo {
  /** MAC hex, lower case, no colons (as the LIFX cloud writes ids). */
  id: string;
  mac: string;
  label: string;
  address: string;
  port: number;
  reachable: boolean;
  /** The last colour sent (`#rrggbb`, brightness applied; black when switched off), or seen at discovery. */
  lastColor: string | null;
}

export interface LifxLanDriver extends LightDriver, RoomStateDriver {
  readonly provider: 'lifx_lan';
  /** Scans again (GetService to every target) and returns the lights found so far. */
  discover(): Promise<LightDeviceInfo[]>;
  devices(): LanLightInfo[];
  /** Writes waiting to be sent, over every bulb. */
  pendingCount(): number;
  close(): Promise<void>;
}
