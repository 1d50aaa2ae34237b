import { randomBytes } from 'node:crypto';
import type { RemoteInfo } from 'node:dgram';
import {
  LIFX_BROADCAST_TARGET,
  LIFX_ECHO_SIZE,
  LIFX_LAN_PORT,
  LIFX_SERVICE_UDP,
  type LifxMessage,
} from '@flaglight/core';
import type { LightDeviceInfo } from '../../driver.js';
import { LightError } from '../../errors.js';
import type { Timers } from '../../timers.js';
import { createRescanLoop } from '../rescan-loop.js';
import {
  bulbLabel,
  createBulb,
  LIFX_LAN_MAX_BULBS,
  listLights,
  normaliseLifxId,
  toDeviceInfo,
  type LanBulb,
} from './bulb.js';
import type { LanTarget } from './driver-options.js';
import { stateWrites } from './messages.js';
import type { LifxSender } from './sender.js';
import { LIFX_LAN_CLOSED, type LifxTransport } from './transport.js';

const PROBES_PER_RESCAN = 5;
const BROADCAST_ADDRESS = '255.255.255.255';
/** GetService sequences whose StateService answers are taken (a scan sends three). */
const REMEMBERED_SEQUENCES = 16;

export interface LifxDiscoveryOptions {
  timers: Timers;
  transport: LifxTransport;
  sender: LifxSender;
  bulbs: Map<string, LanBulb>;
  isClosed: () => boolean;
  log: (message: string) => void;
  targets: readonly LanTarget[];
  /** Also GetService to 255.255.255.255:56700. */
  broadcast: boolean;
  windowMs: number;
  rescanIntervalMs: number;
  probeIntervalMs: number;
}

export interface LifxDiscovery {
  /** Scans (or joins the scan running) and returns the lights found so far. */
  scan(): Promise<LightDeviceInfo[]>;
  /** Whether a scan has finished. */
  scanned(): boolean;
  /** A StateService: a bulb found, or found at a new address, when it answers our GetService. */
  stateService(
    sequence: number,
    mac: string,
    message: Extract<LifxMessage, { type: 'StateService' }>,
    from: RemoteInfo,
  ): void;
  /** An unreachable bulb answered: usable again, and its last look is sent again. */
  answered(bulb: LanBulb): void;
  /** Probes unreachable bulbs with EchoRequest until they answer. */
  scheduleProbe(): void;
  /** Ends probes and re-scans, and the waits of a running scan. */
  stop(): void;
}

/**
 * Finding bulbs: GetService to the targets (three times in the window), re-scans, and probes of
 * unreachable bulbs with EchoRequest, re-discovering them by MAC every 5th probe.
 */
export function createLifxDiscovery(options: LifxDiscoveryOptions): LifxDiscovery {
  const { timers, transport, sender, bulbs, isClosed, log, targets, windowMs } = options;
  const discoverySequences: number[] = [];
  const rescans = createRescanLoop({
    timers,
    intervalMs: options.rescanIntervalMs,
    scan: scanOnce,
    onError: (error) => log(`LIFX LAN: re-scan failed: ${String(error)}`),
  });
  let scanned = false;
  let probeTimer: unknown = null;
  let probeTicks = 0;

  function stateService(
    sequence: number,
    mac: string,
    message: Extract<LifxMessage, { type: 'StateService' }>,
    from: RemoteInfo,
  ): void {
    if (discoverySequences.includes(sequence)) found(mac, message, from);
  }

  function found(
    mac: string,
    message: Extract<LifxMessage, { type: 'StateService' }>,
    from: RemoteInfo,
  ): void {
    // Only the UDP service; port 0 means "temporarily unavailable" (§1.1).
    if (message.service !== LIFX_SERVICE_UDP || message.port === 0) return;
    const id = normaliseLifxId(mac);
    let bulb = bulbs.get(id);
    if (!bulb) {
      if (bulbs.size >= LIFX_LAN_MAX_BULBS) return;
      bulb = createBulb(mac, from.address, message.port);
      bulbs.set(id, bulb);
      log(`LIFX LAN: found ${id} at ${from.address}:${message.port}`);
      return;
    }
    if (bulb.address !== from.address || bulb.port !== message.port) {
      log(
        `LIFX LAN: ${bulbLabel(bulb)} moved from ${bulb.address}:${bulb.port} to ${from.address}:${message.port}`,
      );
      bulb.address = from.address;
      bulb.port = message.port;
    }
    if (!bulb.reachable) answered(bulb);
  }

  function answered(bulb: LanBulb): void {
    if (bulb.reachable || isClosed()) return;
    bulb.reachable = true;
    log(`LIFX LAN: ${bulbLabel(bulb)} answers again`);
    if (bulb.isLight === null) void sender.query(bulb);
    const look = bulb.lastLook;
    if (look)
      void sender
        .write(
          bulb,
          stateWrites({ on: look.on, color: look.color, brightness: look.brightness, transitionMs: 0 }),
        )
        .catch(() => undefined);
  }

  function sendGetService(): void {
    const seq = transport.nextSequence();
    discoverySequences.push(seq);
    if (discoverySequences.length > REMEMBERED_SEQUENCES) discoverySequences.shift();
    const bytes = transport.encode(LIFX_BROADCAST_TARGET, seq, { type: 'GetService' }, false, true);
    for (const target of targets) transport.send(bytes, target.port, target.host);
    if (options.broadcast) transport.send(bytes, LIFX_LAN_PORT, BROADCAST_ADDRESS);
  }

  /** One scan; the rescan loop runs one at a time and repeats it every `rescanIntervalMs`. */
  async function scanOnce(): Promise<LightDeviceInfo[]> {
    await transport.open();
    // Three GetService in the window: one lost datagram does not hide a bulb.
    sendGetService();
    void rescans.wait(windowMs / 3).then(() => !isClosed() && sendGetService());
    void rescans.wait((2 * windowMs) / 3).then(() => !isClosed() && sendGetService());
    await rescans.wait(windowMs);
    if (isClosed()) throw new LightError('not-configured', LIFX_LAN_CLOSED);
    await Promise.all(
      [...bulbs.values()].filter((b) => b.isLight === null && b.reachable).map((bulb) => sender.query(bulb)),
    );
    scanned = true;
    return listLights(bulbs).map(toDeviceInfo);
  }

  function scheduleProbe(): void {
    if (probeTimer !== null || isClosed()) return;
    probeTimer = timers.setTimeout(probe, options.probeIntervalMs);
  }

  function probe(): void {
    probeTimer = null;
    const lost = [...bulbs.values()].filter((b) => !b.reachable);
    if (lost.length === 0 || isClosed()) return;
    probeTicks += 1;
    for (const bulb of lost) {
      const payload = new Uint8Array(randomBytes(LIFX_ECHO_SIZE));
      bulb.lastSentAt = timers.now();
      transport.send(
        transport.encode(bulb.mac, transport.nextSequence(), { type: 'EchoRequest', payload }, false),
        bulb.port,
        bulb.address,
      );
    }
    // A bulb that moved answers no echo at its old address: look for its MAC again.
    if (probeTicks % PROBES_PER_RESCAN === 0 && !rescans.isRunning()) rescans.rescan();
    scheduleProbe();
  }

  return {
    scan: () => rescans.run(),
    scanned: () => scanned,
    stateService,
    answered,
    scheduleProbe,
    stop() {
      timers.clearTimeout(probeTimer);
      rescans.stop();
    },
  };
}
