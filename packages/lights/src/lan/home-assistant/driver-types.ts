// What the Home Assistant driver takes and what it offers beside the shared driver interface.
import type { LightDeviceInfo, LightDriver } from '../../driver.js';
import type { Timers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';
import type { HomeAssistantLight } from './looks.js';

/**
 * At most one call per entity in this long, counted from the answer to the one before: a Zigbee bulb
 * takes a few commands a second, and HA answers a call only once the device did (reference §1.8).
 * Also the strobe's shortest half period.
 */
export const HOME_ASSISTANT_PACE_MS = 400;
/** Home Assistant is asked again after this long when it stopped answering, doubling up to the max. */
export const HOME_ASSISTANT_PROBE_MS = 2_000;
export const HOME_ASSISTANT_PROBE_MAX_MS = 30_000;
/** The states are read again this often: an entity that became unavailable (or came back) shows. */
export const HOME_ASSISTANT_REFRESH_MS = 10_000;

export type HomeAssistantConnection = 'connecting' | 'connected' | 'unreachable' | 'token-refused' | 'closed';

export interface HomeAssistantDriverOptions {
  /** The instance's base URL (`parseHomeAssistantUrl`). */
  url: string;
  token: string;
  /** Accept a self-signed HTTPS certificate (`--home-assistant-insecure`). */
  insecure?: boolean;
  timers?: Timers;
  timeoutMs?: number;
  paceMs?: number;
  probeMs?: number;
  probeMaxMs?: number;
  /** 0 = never (tests that read on demand). */
  refreshMs?: number;
  /** Log lines quote what devices say as they said it: the receiver escapes them (`escapeLogText`). */
  onLog?: (message: string) => void;
}

export interface HomeAssistantEntityError {
  entityId: string;
  name: string;
  message: string;
}

export interface HomeAssistantDriver extends LightDriver, RoomStateDriver {
  readonly provider: 'home_assistant';
  /** Checks the token (`GET /api/`), reads the lights and their areas. */
  connect(): Promise<LightDeviceInfo[]>;
  discover(): Promise<LightDeviceInfo[]>;
  connection(): HomeAssistantConnection;
  /** Why it is not connected, in words (never the token). */
  problem(): string | null;
  lights(): HomeAssistantLight[];
  /** Entities whose last call HA refused (400, 5xx): named, while the others go on. */
  entityErrors(): HomeAssistantEntityError[];
  close(): Promise<void>;
}
