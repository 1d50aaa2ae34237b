// What starting the companion takes and gives: its options, the outcome of a start, the running companion.
import type { BridgeStatus, LocalBridge } from './bridge/local-bridge.js';
import type { F1FallbackOptions } from './follow/f1-fallback.js';
import type { MqttSettings } from './home/mqtt-publisher.js';
import type { HomeAssistantOptions } from './lights/home-assistant-support.js';
import type { GoveePorts } from './options.js';
import type { Logger } from './system/log.js';
import type { Manifest } from './update/manifest.js';

export interface CompanionOptions extends HomeAssistantOptions {
  server: string;
  dataDir: string;
  port: number;
  openBrowser: boolean;
  /** Follow a local demo server and drive its LAN simulator. */
  demo: boolean;
  /** LIFX discovery targets (unicast), besides the broadcast scan. */
  lifxTargets: { host: string; port: number }[];
  /** Govee scan targets (unicast), besides the multicast scan. */
  goveeTargets: { host: string; port: number }[];
  /** Govee scan, listen and command ports (demo: the simulator's). */
  goveePorts: GoveePorts;
  /** Hue bridges to use besides mDNS. */
  hueBridges: string[];
  /** Nanoleaf controllers to offer for pairing besides mDNS (`--nanoleaf`). */
  nanoleaf: { host: string; port: number }[];
  /** WLED devices besides mDNS (`--wled`; demo: the simulator's). */
  wled?: { host: string; port: number }[];
  /** The real LAN scan (broadcast, mDNS, Govee's multicast): never in demo mode or tests. */
  lanScan: boolean;
  console: boolean;
  /** Log to `companion.log` in the data folder (the background mode). */
  logToFile: boolean;
  deviceName?: string;
  /** F1 live timing's hub, followed directly while the server is unreachable; null or absent: off. */
  f1Live?: string | null;
  /** Timings of that fallback (tests). */
  f1Fallback?: Pick<F1FallbackOptions, 'outageMs' | 'recentLiveMs' | 'sessionOverMs' | 'client'>;
  /** An MQTT broker to publish the played flag to (`--mqtt`), with Home Assistant discovery. */
  mqtt?: MqttSettings | null;
  /** Updates (decision 045); absent: off, as with `--no-update`. */
  update?: UpdateOptions;
}

export interface UpdateOptions {
  enabled: boolean;
  /** The running single executable; null under tsx (checks only). */
  executable: string | null;
  /** Puts a checked file in place and hands over to it; resolves only when that failed. */
  install: (file: string, manifest: Manifest) => Promise<{ ok: false; message: string }>;
  /** Timings (tests). */
  firstCheckMs?: number;
  quietPollMs?: number;
}

export type CompanionStart =
  { kind: 'started'; companion: Companion } | { kind: 'already-running'; url: string; status: BridgeStatus };

export interface Companion {
  bridge: LocalBridge;
  log: Logger;
  status(): BridgeStatus;
  /** Resolves once linked (at once when already linked). */
  linked(): Promise<void>;
  close(): Promise<void>;
}
