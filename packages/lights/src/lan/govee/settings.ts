import type { LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers, type Timers } from '../../timers.js';
import {
  GOVEE_LAN_ATTEMPTS,
  GOVEE_LAN_EXPIRE_AFTER_SCANS,
  GOVEE_LAN_MAX_DEVICES,
  GOVEE_LAN_MIN_GAP_MS,
  GOVEE_LAN_MISSED_SCANS,
  GOVEE_LAN_REPEAT_AFTER_MS,
  GOVEE_LAN_RESCAN_INTERVAL_MS,
  GOVEE_LAN_SCAN_WINDOW_MS,
  GOVEE_LAN_STATUS_TIMEOUT_MS,
  type GoveeLanDriverOptions,
  type GoveeLanPorts,
  type GoveeLanTarget,
} from './driver-options.js';
import { GOVEE_LAN_DEFAULT_PORTS } from './messages.js';
import { GOVEE_LAN_REPLY_WINDOW_MS } from './reply-gate.js';

/** The driver's options checked, with every default filled in. */
export interface GoveeLanSettings {
  ports: GoveeLanPorts;
  targets: GoveeLanTarget[];
  multicast: boolean;
  timers: Timers;
  log: (message: string) => void;
  bindAddress: string;
  fromReply: boolean;
  /** Hosts whose replies are taken besides private ones on a local subnet (looked up before each scan). */
  allowedHosts: readonly string[];
  windowMs: number;
  replyWindowMs: number;
  rescanIntervalMs: number;
  minGapMs: number;
  repeatAfterMs: number;
  statusTimeoutMs: number;
  attempts: number;
  missedLimit: number;
  expireLimit: number;
  maxDevices: number;
}

export function requirePort(value: number, what: string, allowZero: boolean): number {
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1) || value > 65_535)
    throw new LightError('bad-request', `Govee LAN: ${what} must be a port number (1–65535), not ${value}`);
  return value;
}

export function resolveGoveeSettings(options: GoveeLanDriverOptions): GoveeLanSettings {
  const ports: GoveeLanPorts = { ...GOVEE_LAN_DEFAULT_PORTS, ...options.ports };
  requirePort(ports.scan, 'the scan port', false);
  requirePort(ports.listen, 'the listen port', true);
  requirePort(ports.command, 'the command port', false);
  const targets = [...(options.targets ?? [])];
  for (const target of targets) {
    if (typeof target.host !== 'string' || target.host.trim() === '')
      throw new LightError('bad-request', 'Govee LAN: a scan target needs a host');
    requirePort(target.port, `the scan target ${target.host}'s port`, false);
  }
  if (targets.length === 0 && !options.multicast)
    throw new LightError('bad-request', 'Govee LAN: give scan targets or allow the multicast scan');
  const windowMs = options.scanWindowMs ?? GOVEE_LAN_SCAN_WINDOW_MS;
  const missedLimit = Math.max(1, options.missedScans ?? GOVEE_LAN_MISSED_SCANS);
  return {
    ports,
    targets,
    multicast: options.multicast ?? false,
    timers: options.timers ?? systemTimers,
    log: options.onLog ?? (() => undefined),
    bindAddress: options.bindAddress ?? '0.0.0.0',
    fromReply: options.commandPortFromReply ?? false,
    allowedHosts: options.allowedSources ?? targets.map((target) => target.host),
    windowMs,
    // Never shorter than the scan itself: a reply to its second request still counts.
    replyWindowMs: Math.max(windowMs, options.replyWindowMs ?? GOVEE_LAN_REPLY_WINDOW_MS),
    rescanIntervalMs: options.rescanIntervalMs ?? GOVEE_LAN_RESCAN_INTERVAL_MS,
    minGapMs: options.minGapMs ?? GOVEE_LAN_MIN_GAP_MS,
    repeatAfterMs: options.repeatAfterMs ?? GOVEE_LAN_REPEAT_AFTER_MS,
    statusTimeoutMs: options.statusTimeoutMs ?? GOVEE_LAN_STATUS_TIMEOUT_MS,
    attempts: Math.max(1, options.attempts ?? GOVEE_LAN_ATTEMPTS),
    missedLimit,
    expireLimit: Math.max(missedLimit, options.expireAfterScans ?? GOVEE_LAN_EXPIRE_AFTER_SCANS),
    maxDevices: Math.max(1, options.maxDevices ?? GOVEE_LAN_MAX_DEVICES),
  };
}

export function requireLook(state: LightStateCommand): void {
  const { brightness, color } = state;
  if (typeof brightness !== 'number' || !Number.isFinite(brightness) || brightness < 0 || brightness > 1)
    throw new LightError('bad-request', `Govee LAN: brightness must be between 0 and 1, not ${brightness}`);
  if (
    !Number.isFinite(color.hue) ||
    !Number.isFinite(color.saturation) ||
    color.saturation < 0 ||
    color.saturation > 1
  )
    throw new LightError(
      'bad-request',
      `Govee LAN: colour "${color.name}" is not a hue and a 0–1 saturation`,
    );
}
