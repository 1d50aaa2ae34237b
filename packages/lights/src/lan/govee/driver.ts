import type { RemoteInfo, Socket } from 'node:dgram';
import type { LightStep } from '@flaglight/core';
import {
  DriverEvents,
  type DriverListener,
  type LightDeviceInfo,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { createRescanLoop } from '../rescan-loop.js';
import { createGoveeDevice, goveeLabel, toDeviceInfo, toLightInfo, type GoveeDevice } from './device.js';
import {
  GOVEE_LAN_CONTROL_ADVICE,
  GOVEE_LAN_MIN_STROBE_HALF_PERIOD_MS,
  type GoveeLanDriver,
  type GoveeLanDriverOptions,
} from './driver-options.js';
import {
  describeStatus,
  GOVEE_LAN_MULTICAST_GROUP,
  GOVEE_SCAN_MESSAGE,
  GOVEE_STATUS_MESSAGE,
  lookCommands,
  parseGoveeDatagram,
  statusMatches,
  toGoveeLook,
  type GoveeLook,
  type GoveeScanReply,
  type GoveeStatus,
} from './messages.js';
import { createReplyGate, GOVEE_LAN_MAX_DATAGRAM_BYTES } from './reply-gate.js';
import {
  isAllowedSource,
  readLocalInterfaces,
  resolveHosts,
  sameAddress,
  type SourceRule,
} from './reply-guard.js';
import { requireLook, resolveGoveeSettings } from './settings.js';
import { bindGoveeSocket } from './socket.js';

export * from './driver-options.js';

const CLOSED = 'Govee LAN driver is closed';

/**
 * Govee devices over the LAN API (reference/nanoleaf-govee.md §2.1) on one UDP socket bound to the
 * listen port (4002, with reuseAddr) that sends scans and commands and receives every reply.
 * Per change a device gets `turn` + `brightness` + `colorwc` (off: `turn` 0), paced 40 ms apart;
 * the last one again after 200 ms (no acknowledgement); then `devStatus`, and the look is sent
 * again when the answer differs or does not come (3 tries, then the device is reported). The
 * newest look replaces whatever is queued. Scans repeat; a device that misses 3 in a row is
 * reported unreachable and found again (also at a new address) by its id; after 6 it is removed.
 * Anyone on the LAN can send to the listen port, so a scan reply counts only while our scan is
 * outstanding, from an allowed address (reply-guard.ts), up to 64 devices, and commands go to the
 * address it came from, never to one it names.
 */
export function createGoveeLanDriver(options: GoveeLanDriverOptions): GoveeLanDriver {
  const settings = resolveGoveeSettings(options);
  const { ports, targets, timers, log, bindAddress, fromReply, windowMs, rescanIntervalMs } = settings;
  const { minGapMs, repeatAfterMs, statusTimeoutMs, attempts, missedLimit, expireLimit, maxDevices } =
    settings;
  const gate = createReplyGate({ timers, log, replyWindowMs: settings.replyWindowMs });
  /** Who may answer a scan: refreshed before each scan (this computer may have changed networks). */
  let sourceRule: SourceRule = { allowed: [], interfaces: [] };
  const events = new DriverEvents();
  const devices = new Map<string, GoveeDevice>();
  /** Devices that answered the scan running now. */
  const answered = new Set<string>();
  const rescans = createRescanLoop({
    timers,
    intervalMs: rescanIntervalMs,
    scan: scanOnce,
    onError: (error) => log(`Govee LAN: re-scan failed: ${String(error)}`),
  });
  let socket: Socket | null = null;
  let opening: Promise<Socket> | null = null;
  let scanned = false;
  let foundNothing = false;
  let closed = false;

  function open(): Promise<Socket> {
    if (closed) return Promise.reject(new LightError('not-configured', CLOSED));
    opening ??= bindGoveeSocket({ port: ports.listen, bindAddress, onMessage: receive, log }).then(
      (s) => (socket = s),
      (error: LightError) => {
        opening = null;
        events.emit({ type: 'error', error: { kind: 'network', message: error.message } });
        throw error;
      },
    );
    return opening;
  }

  function sendRaw(text: string, port: number, address: string): void {
    if (!socket || closed) return;
    socket.send(text, port, address, (error) => {
      if (error) log(`Govee LAN: send to ${address}:${port} failed: ${error.message}`);
    });
  }

  // --- receiving -------------------------------------------------------------------------------

  function receive(datagram: Buffer, from: RemoteInfo): void {
    if (datagram.length > GOVEE_LAN_MAX_DATAGRAM_BYTES) {
      gate.ignore('oversize', `ignored a ${datagram.length}-byte datagram from ${from.address}`);
      return;
    }
    const message = parseGoveeDatagram(datagram.toString('utf8'));
    if (!message) return;
    if (message.cmd === 'scan') found(message.reply, from);
    else if (message.cmd === 'devStatus') statusFrom(message.status, from);
  }

  /**
   * A scan reply adds or moves a device only while our scan is outstanding and from an address
   * that may answer; commands then go to where it came from, whatever address it names.
   */
  function found(reply: GoveeScanReply, from: RemoteInfo): void {
    if (!gate.open())
      return gate.ignore('unrequested', `ignored scan replies nobody asked for (${from.address})`);
    if (!isAllowedSource(from.address, sourceRule))
      return gate.ignore('source', `ignored scan replies from ${from.address}: not a light on this network`);
    let device = devices.get(reply.device);
    if (!device && devices.size >= maxDevices)
      return gate.ignore('overCap', `${maxDevices} devices known already: ignored ${reply.device}`);
    const address = from.address;
    const port = fromReply ? from.port : ports.command;
    if (reply.ip !== null && !sameAddress(reply.ip, address))
      gate.ignore(
        'payloadIp',
        `${reply.device} names ${reply.ip} but answered from ${address}: using ${address}`,
      );
    answered.add(reply.device);
    if (!device) {
      device = createGoveeDevice(reply.device, reply.sku, address, port, goveeLabel);
      devices.set(device.id, device);
      log(`Govee LAN: found ${device.label} (${device.id}) at ${address}:${port}`);
      return;
    }
    device.missedScans = 0;
    if (device.address !== address || device.port !== port) {
      log(`Govee LAN: ${device.label} moved from ${device.address}:${device.port} to ${address}:${port}`);
      device.address = address;
      device.port = port;
      // A look sent to the old address is lost: send it again.
      if (device.reachable && device.look && device.phase !== 'confirmed')
        void start(device, device.look).catch(() => undefined);
    }
    if (!device.reachable) {
      device.reachable = true;
      log(`Govee LAN: ${device.label} answers again`);
      if (device.look) void start(device, device.look).catch(() => undefined);
    }
  }

  function statusFrom(status: GoveeStatus, from: RemoteInfo): void {
    // A status names no device: it is told by where it came from.
    const device = [...devices.values()].find(
      (d) => d.address === from.address && (!fromReply || d.port === from.port),
    );
    if (!device) return;
    device.lastStatus = status;
    if (device.phase !== 'confirming' || !device.look) return;
    timers.clearTimeout(device.phaseTimer);
    device.phaseTimer = null;
    if (statusMatches(device.look, status)) {
      device.phase = 'confirmed';
      settle(device, null);
      return;
    }
    retry(
      device,
      new LightError(
        'server',
        `Govee device "${device.label}" answers but does not apply commands (it still shows ` +
          `${describeStatus(status)}). Power it off and on, and check "LAN Control" in the Govee Home app.`,
      ),
    );
  }

  // --- sending one look, paced, repeated and confirmed ----------------------------------------------

  function pump(device: GoveeDevice): void {
    if (closed || !device.reachable || device.paceTimer !== null) return;
    const next = device.queue[0];
    if (next === undefined) {
      const then = device.onDrained;
      device.onDrained = null;
      then?.();
      return;
    }
    const wait = device.lastSentAt + minGapMs - timers.now();
    if (wait > 0) {
      device.paceTimer = timers.setTimeout(() => {
        device.paceTimer = null;
        pump(device);
      }, wait);
      return;
    }
    device.queue.shift();
    device.lastSentAt = timers.now();
    device.sent += 1;
    sendRaw(next, device.port, device.address);
    pump(device);
  }

  function send(device: GoveeDevice, datagrams: string[], then: () => void): void {
    device.queue = [...datagrams];
    device.onDrained = then;
    pump(device);
  }

  /** One try: the commands, the last one again after 200 ms, then a status read. */
  function attempt(device: GoveeDevice, look: GoveeLook): void {
    device.attempt += 1;
    device.phase = 'sending';
    const commands = lookCommands(look);
    send(device, commands, () => {
      device.phase = 'repeating';
      device.phaseTimer = timers.setTimeout(() => {
        device.phaseTimer = null;
        send(device, [commands.at(-1)!, GOVEE_STATUS_MESSAGE], () => {
          device.phase = 'confirming';
          device.phaseTimer = timers.setTimeout(() => {
            device.phaseTimer = null;
            retry(device, new LightError('timeout', `Govee device "${device.label}" is not answering`));
          }, statusTimeoutMs);
        });
      }, repeatAfterMs);
    });
  }

  function retry(device: GoveeDevice, error: LightError): void {
    if (!device.look) return;
    if (device.attempt < attempts) {
      log(
        `Govee LAN: ${device.label}: ${error.kind === 'timeout' ? 'no status' : 'status differs'}, sending again`,
      );
      attempt(device, device.look);
      return;
    }
    device.phase = 'failed';
    log(`Govee LAN: ${error.message} (${device.address}:${device.port})`);
    events.emit({ type: 'error', error: { kind: error.kind, message: error.message } });
    settle(device, error);
  }

  function stop(device: GoveeDevice): void {
    timers.clearTimeout(device.paceTimer);
    timers.clearTimeout(device.phaseTimer);
    device.paceTimer = null;
    device.phaseTimer = null;
    device.queue = [];
    device.onDrained = null;
    if (device.phase !== 'confirmed' && device.phase !== 'failed') device.phase = 'idle';
  }

  /** Ends the waits for a look: resolved when confirmed or replaced, rejected when it failed. */
  function settle(device: GoveeDevice, error: LightError | null): void {
    const waiters = device.waiters;
    device.waiters = [];
    for (const waiter of waiters) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  /** The newest look wins: whatever was queued or waited for is dropped. */
  function start(device: GoveeDevice, look: GoveeLook): Promise<void> {
    stop(device);
    settle(device, null);
    device.look = look;
    device.attempt = 0;
    // An unreachable device gets its last look when it is found again.
    if (!device.reachable) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      device.waiters.push({ resolve, reject });
      attempt(device, look);
    });
  }

  function unreachable(device: GoveeDevice): void {
    if (!device.reachable) return;
    device.reachable = false;
    stop(device);
    settle(device, null);
    const message = `Govee device "${device.label}" is not answering on the LAN (missed ${device.missedScans} scans)`;
    log(`Govee LAN: ${message} (${device.address})`);
    events.emit({ type: 'error', error: { kind: 'timeout', message } });
  }

  /** Gone for a while: dropped, so forged or departed devices do not pile up; found again as new. */
  function expire(device: GoveeDevice): void {
    unreachable(device);
    devices.delete(device.id);
    const message = `Govee device "${device.label}" missed ${device.missedScans} scans: removed from the list`;
    log(`Govee LAN: ${message}`);
    events.emit({ type: 'warning', message });
  }

  // --- scans ----------------------------------------------------------------------------------------

  function sendScan(): void {
    gate.scanSent();
    for (const target of targets) sendRaw(GOVEE_SCAN_MESSAGE, target.port, target.host);
    if (settings.multicast) sendRaw(GOVEE_SCAN_MESSAGE, ports.scan, GOVEE_LAN_MULTICAST_GROUP);
  }

  function deviceList(): LightDeviceInfo[] {
    return [...devices.values()].map(toDeviceInfo);
  }

  /** One scan; the rescan loop runs one at a time and repeats it every `rescanIntervalMs`. */
  async function scanOnce(): Promise<LightDeviceInfo[]> {
    await open();
    sourceRule = {
      allowed: await resolveHosts(settings.allowedHosts),
      interfaces: readLocalInterfaces(),
    };
    if (closed) throw new LightError('not-configured', CLOSED);
    answered.clear();
    // Two scans in the window: one lost datagram does not hide a device.
    sendScan();
    await rescans.wait(windowMs / 2);
    if (!closed) sendScan();
    await rescans.wait(windowMs / 2);
    if (closed) throw new LightError('not-configured', CLOSED);
    for (const device of devices.values()) {
      if (answered.has(device.id)) continue;
      device.missedScans += 1;
      if (device.missedScans >= expireLimit) expire(device);
      else if (device.missedScans >= missedLimit) unreachable(device);
    }
    foundNothing = answered.size === 0;
    if (foundNothing) events.emit({ type: 'warning', message: GOVEE_LAN_CONTROL_ADVICE });
    scanned = true;
    return deviceList();
  }

  const scan = () => rescans.run();

  // --- the LightDriver ------------------------------------------------------------------------------

  function targetsOf(ids: readonly string[]): GoveeDevice[] {
    if (ids.length === 0) return [...devices.values()];
    const list: GoveeDevice[] = [];
    const unknown: string[] = [];
    for (const id of ids) {
      const device = devices.get(id);
      if (device) list.push(device);
      else unknown.push(id);
    }
    if (unknown.length > 0)
      events.emit({ type: 'warning', message: `Unknown Govee LAN devices: ${unknown.join(', ')}` });
    return list;
  }

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    if (closed) throw new LightError('not-configured', CLOSED);
    requireLook(state);
    const look = toGoveeLook(state);
    await Promise.all(targetsOf(ids).map((device) => start(device, look)));
  }

  return {
    provider: 'govee_lan',
    // Govee's LAN API has no strobe: the player expands flashes into timed looks.
    nativeStrobe: false,
    minStrobeHalfPeriodMs: () => Math.max(GOVEE_LAN_MIN_STROBE_HALF_PERIOD_MS, 2 * minGapMs),
    async listDevices() {
      if (!scanned) return scan();
      return deviceList();
    },
    discover: scan,
    devices: () => [...devices.values()].map(toLightInfo),
    listenPort: () => {
      if (!socket) return null;
      return socket.address().port;
    },
    scanFoundNothing: () => foundNothing,
    ignoredReplies: () => gate.counts(),
    setState,
    playStep(ids: readonly string[], step: Exclude<LightStep, { kind: 'restore' }>) {
      return setState(ids, {
        on: true,
        color: step.color,
        brightness: step.brightness,
        transitionMs: step.kind === 'set-state' ? step.transitionMs : 0,
      });
    },
    cancelPending() {
      for (const device of devices.values()) {
        stop(device);
        settle(device, null);
      }
    },
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      rescans.stop();
      for (const device of devices.values()) {
        stop(device);
        settle(device, null);
      }
      const s = socket ?? (opening ? await opening.catch(() => null) : null);
      socket = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
