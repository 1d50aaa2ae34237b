import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { LightStep } from '@flaglight/core';
import {
  DriverEvents,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers, type Timers } from '../../timers.js';
import { createGoveeDevice, goveeLabel, type GoveeDevice } from './device.js';
import {
  describeStatus,
  GOVEE_LAN_DEFAULT_PORTS,
  GOVEE_LAN_MULTICAST_GROUP,
  GOVEE_SCAN_MESSAGE,
  GOVEE_STATUS_MESSAGE,
  lookCommands,
  lookHex,
  parseGoveeDatagram,
  statusMatches,
  toGoveeLook,
  type GoveeLook,
  type GoveeScanReply,
  type GoveeStatus,
} from './messages.js';

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
  timers?: Timers;
  onLog?: (message: string) => void;
  /** Tuning (tests): scan window, re-scan (0 = never), pace, repeat, status wait, tries, missed scans. */
  scanWindowMs?: number;
  rescanIntervalMs?: number;
  minGapMs?: number;
  repeatAfterMs?: number;
  statusTimeoutMs?: number;
  attempts?: number;
  missedScans?: number;
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

export interface GoveeLanDriver extends LightDriver {
  readonly provider: 'govee_lan';
  /** Scans again and returns the devices known so far. */
  discover(): Promise<LightDeviceInfo[]>;
  devices(): GoveeLanLightInfo[];
  /** The port replies come to, once the socket is open (null before). */
  listenPort(): number | null;
  /** True when the last finished scan found no device at all (show {@link GOVEE_LAN_CONTROL_ADVICE}). */
  scanFoundNothing(): boolean;
  close(): Promise<void>;
}

const CLOSED = 'Govee LAN driver is closed';
const LIGHT_TYPE = 'govee_lan';

function requirePort(value: number, what: string, allowZero: boolean): number {
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1) || value > 65_535)
    throw new LightError('bad-request', `Govee LAN: ${what} must be a port number (1–65535), not ${value}`);
  return value;
}

function requireLook(state: LightStateCommand): void {
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

/**
 * Govee devices over the LAN API (reference/nanoleaf-govee.md §2.1) on one UDP socket bound to the
 * listen port (4002, with reuseAddr) that sends scans and commands and receives every reply.
 * Per change a device gets `turn` + `brightness` + `colorwc` (off: `turn` 0), paced 40 ms apart;
 * the last one again after 200 ms (no acknowledgement); then `devStatus`, and the look is sent
 * again when the answer differs or does not come (3 tries, then the device is reported). The
 * newest look replaces whatever is queued. Scans repeat; a device that misses 3 in a row is
 * reported unreachable and found again (also at a new address) by its id.
 */
export function createGoveeLanDriver(options: GoveeLanDriverOptions): GoveeLanDriver {
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
  const timers = options.timers ?? systemTimers;
  const log = options.onLog ?? (() => undefined);
  const bindAddress = options.bindAddress ?? '0.0.0.0';
  const fromReply = options.commandPortFromReply ?? false;
  const windowMs = options.scanWindowMs ?? GOVEE_LAN_SCAN_WINDOW_MS;
  const rescanIntervalMs = options.rescanIntervalMs ?? GOVEE_LAN_RESCAN_INTERVAL_MS;
  const minGapMs = options.minGapMs ?? GOVEE_LAN_MIN_GAP_MS;
  const repeatAfterMs = options.repeatAfterMs ?? GOVEE_LAN_REPEAT_AFTER_MS;
  const statusTimeoutMs = options.statusTimeoutMs ?? GOVEE_LAN_STATUS_TIMEOUT_MS;
  const attempts = Math.max(1, options.attempts ?? GOVEE_LAN_ATTEMPTS);
  const missedLimit = Math.max(1, options.missedScans ?? GOVEE_LAN_MISSED_SCANS);
  const events = new DriverEvents();
  const devices = new Map<string, GoveeDevice>();
  /** Devices that answered the scan running now. */
  const answered = new Set<string>();
  const scanWaits = new Map<unknown, () => void>();
  let socket: Socket | null = null;
  let opening: Promise<Socket> | null = null;
  let scanning: Promise<LightDeviceInfo[]> | null = null;
  let scanned = false;
  let foundNothing = false;
  let closed = false;
  let rescanTimer: unknown = null;

  function open(): Promise<Socket> {
    if (closed) return Promise.reject(new LightError('not-configured', CLOSED));
    opening ??= new Promise<Socket>((resolve, reject) => {
      // reuseAddr: another Govee app on this PC may have bound the listen port too (§2.1).
      const s = createSocket({ type: 'udp4', reuseAddr: true });
      const fail = (error: NodeJS.ErrnoException) => {
        opening = null;
        try {
          s.close();
        } catch {
          // never bound: nothing to close
        }
        const message =
          error.code === 'EADDRINUSE'
            ? `UDP port ${ports.listen} is in use: another Govee app on this computer (Govee Home, ` +
              'Home Assistant, a Homebridge plugin) may hold it. Quit it, or choose other ports with --govee-ports.'
            : `Could not open UDP port ${ports.listen} on ${bindAddress}: ${error.message}`;
        events.emit({ type: 'error', error: { kind: 'network', message } });
        reject(new LightError('network', message));
      };
      s.once('error', fail);
      s.bind(ports.listen, bindAddress, () => {
        s.off('error', fail);
        s.on('error', (error) => log(`Govee LAN socket error: ${error.message}`));
        s.on('message', (datagram, from) => receive(datagram, from));
        socket = s;
        resolve(s);
      });
    });
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
    const message = parseGoveeDatagram(datagram.toString('utf8'));
    if (!message) return;
    if (message.cmd === 'scan') found(message.reply, from);
    else if (message.cmd === 'devStatus') statusFrom(message.status, from);
  }

  function found(reply: GoveeScanReply, from: RemoteInfo): void {
    const address = reply.ip ?? from.address;
    const port = fromReply ? from.port : ports.command;
    answered.add(reply.device);
    let device = devices.get(reply.device);
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

  // --- scans ----------------------------------------------------------------------------------------

  function sendScan(): void {
    for (const target of targets) sendRaw(GOVEE_SCAN_MESSAGE, target.port, target.host);
    if (options.multicast) sendRaw(GOVEE_SCAN_MESSAGE, ports.scan, GOVEE_LAN_MULTICAST_GROUP);
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = timers.setTimeout(() => {
        scanWaits.delete(handle);
        resolve();
      }, ms);
      scanWaits.set(handle, resolve);
    });
  }

  function deviceList(): LightDeviceInfo[] {
    return [...devices.values()].map((d) => ({
      id: d.id,
      label: d.label,
      name: d.label,
      type: LIGHT_TYPE,
      connected: d.reachable,
    }));
  }

  function scan(): Promise<LightDeviceInfo[]> {
    scanning ??= (async () => {
      try {
        await open();
        answered.clear();
        // Two scans in the window: one lost datagram does not hide a device.
        sendScan();
        await wait(windowMs / 2);
        if (!closed) sendScan();
        await wait(windowMs / 2);
        if (closed) throw new LightError('not-configured', CLOSED);
        for (const device of devices.values()) {
          if (answered.has(device.id)) continue;
          device.missedScans += 1;
          if (device.missedScans >= missedLimit) unreachable(device);
        }
        foundNothing = answered.size === 0;
        if (foundNothing) events.emit({ type: 'warning', message: GOVEE_LAN_CONTROL_ADVICE });
        scanned = true;
        scheduleRescan();
        return deviceList();
      } finally {
        scanning = null;
      }
    })();
    return scanning;
  }

  function scheduleRescan(): void {
    if (rescanIntervalMs <= 0 || rescanTimer !== null || closed) return;
    rescanTimer = timers.setTimeout(() => {
      rescanTimer = null;
      scan().catch((error: unknown) => log(`Govee LAN: re-scan failed: ${String(error)}`));
    }, rescanIntervalMs);
  }

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
    devices: () =>
      [...devices.values()].map((d) => ({
        id: d.id,
        sku: d.sku,
        label: d.label,
        address: d.address,
        port: d.port,
        reachable: d.reachable,
        lastColor: d.look ? lookHex(d.look) : null,
        confirmed: d.phase === 'confirmed',
        sent: d.sent,
      })),
    listenPort: () => {
      if (!socket) return null;
      return socket.address().port;
    },
    scanFoundNothing: () => foundNothing,
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
      timers.clearTimeout(rescanTimer);
      for (const [handle, resolve] of scanWaits) {
        timers.clearTimeout(handle);
        resolve();
      }
      scanWaits.clear();
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
