import { randomBytes, randomInt } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import {
  decodeLifxPacket,
  encodeLifxPacket,
  hsbkToColor,
  LIFX_BROADCAST_TARGET,
  LIFX_ECHO_SIZE,
  LIFX_LAN_PORT,
  LIFX_SERVICE_UDP,
  type LifxHeader,
  type LifxMessage,
  type LifxPacket,
  type LightStep,
} from '@flaglight/core';
import {
  DriverEvents,
  isOff,
  type DriverListener,
  type LightDeviceInfo,
  type LightDriver,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers, type Timers } from '../../timers.js';
import { createBulb, LIFX_LAN_MAX_BULBS, normaliseLifxId, type LanBulb, type Outgoing } from './bulb.js';
import { stateWrites, strobeWrites, toHex, type LanWrite } from './messages.js';

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
const PROBES_PER_RESCAN = 5;
const BROADCAST_ADDRESS = '255.255.255.255';
const LIGHT_TYPE = 'lifx_lan';

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

export interface LifxLanDriver extends LightDriver {
  readonly provider: 'lifx_lan';
  /** Scans again (GetService to every target) and returns the lights found so far. */
  discover(): Promise<LightDeviceInfo[]>;
  devices(): LanLightInfo[];
  /** Writes waiting to be sent, over every bulb. */
  pendingCount(): number;
  close(): Promise<void>;
}

const CLOSED = 'LIFX LAN driver is closed';

/**
 * LIFX bulbs over the LAN protocol (reference/lan-lights.md §1), on one UDP socket bound to an
 * ephemeral port. Discovery is GetService to the configured targets (and the broadcast address only
 * when asked); each answering bulb is then driven at the address it answered from and the port its
 * StateService names. Per bulb: one message in flight (sets with `ack_required`, resent after
 * 500 ms, 3 attempts), at least 50 ms between messages, and a queue in which a newer colour or power
 * write replaces a queued one. A bulb that stops answering is marked unreachable, probed with
 * EchoRequest and re-discovered by MAC; when it answers again its last look is sent again.
 */
export function createLifxLanDriver(options: LifxLanDriverOptions): LifxLanDriver {
  const timers = options.timers ?? systemTimers;
  const log = options.onLog ?? (() => undefined);
  const bindAddress = options.bindAddress ?? '0.0.0.0';
  const windowMs = options.discoveryWindowMs ?? LIFX_LAN_DISCOVERY_WINDOW_MS;
  const minGapMs = options.minGapMs ?? LIFX_LAN_MIN_GAP_MS;
  const resendAfterMs = options.resendAfterMs ?? LIFX_LAN_RESEND_AFTER_MS;
  const attempts = Math.max(1, options.attempts ?? LIFX_LAN_ATTEMPTS);
  const rescanIntervalMs = options.rescanIntervalMs ?? LIFX_LAN_RESCAN_INTERVAL_MS;
  const probeIntervalMs = options.probeIntervalMs ?? LIFX_LAN_PROBE_INTERVAL_MS;
  const nativeStrobe = options.nativeStrobe ?? true;
  const targets = [...options.targets];
  const events = new DriverEvents();
  // Random and non-zero: a zero source may get broadcast replies (§3 pitfalls).
  const source = randomInt(1, 0xffffffff);
  const bulbs = new Map<string, LanBulb>();
  const discoverySequences: number[] = [];
  /** Waits of a running scan: `close()` ends them so the scan settles. */
  const scanWaits = new Map<unknown, () => void>();
  let sequence = randomInt(0, 256);
  let socket: Socket | null = null;
  let opening: Promise<Socket> | null = null;
  let scanning: Promise<LightDeviceInfo[]> | null = null;
  let scanned = false;
  let closed = false;
  let rescanTimer: unknown = null;
  let probeTimer: unknown = null;
  let probeTicks = 0;

  const nextSequence = () => (sequence = (sequence + 1) & 0xff);
  const label = (bulb: LanBulb) => bulb.label ?? bulb.id;

  function open(): Promise<Socket> {
    if (closed) return Promise.reject(new LightError('not-configured', CLOSED));
    opening ??= new Promise<Socket>((resolve, reject) => {
      const s = createSocket('udp4');
      const fail = (error: Error) => {
        opening = null;
        reject(new LightError('network', `Could not open a UDP socket on ${bindAddress}: ${error.message}`));
      };
      s.once('error', fail);
      s.bind(0, bindAddress, () => {
        s.off('error', fail);
        // Only after bind (before it, setBroadcast fails with EBADF), and only for a real scan:
        // the broadcast option, or a directed broadcast target (192.168.1.255) the caller named.
        if (options.broadcast || targets.some((t) => /\.255$/.test(t.host))) s.setBroadcast(true);
        s.on('error', (error) => log(`LIFX LAN socket error: ${error.message}`));
        s.on('message', (datagram, from) => {
          try {
            receive(datagram, from);
          } catch (error) {
            log(`LIFX LAN: ignored a datagram (${error instanceof Error ? error.message : String(error)})`);
          }
        });
        socket = s;
        resolve(s);
      });
    });
    return opening;
  }

  function sendRaw(bytes: Uint8Array, port: number, address: string): void {
    if (!socket || closed) return;
    socket.send(bytes, port, address, (error) => {
      if (error) log(`LIFX LAN: send to ${address}:${port} failed: ${error.message}`);
    });
  }

  function header(target: string, seq: number, ackRequired: boolean, tagged = false): LifxHeader {
    return { tagged, source, target, resRequired: false, ackRequired, sequence: seq };
  }

  // --- receiving -------------------------------------------------------------------------------

  function receive(datagram: Buffer, from: RemoteInfo): void {
    let packet: LifxPacket;
    try {
      packet = decodeLifxPacket(new Uint8Array(datagram.buffer, datagram.byteOffset, datagram.byteLength));
    } catch {
      return; // not a LIFX message
    }
    const { header: h, message } = packet;
    // Other apps' traffic on the LAN (and our own broadcast echoed back) is not ours.
    if (h.source !== source || h.target === LIFX_BROADCAST_TARGET) return;
    if (message.type === 'StateService') {
      if (discoverySequences.includes(h.sequence)) found(h.target, message, from);
      return;
    }
    const bulb = bulbs.get(normaliseLifxId(h.target));
    if (!bulb) return;
    if (!bulb.reachable) {
      answered(bulb);
      return;
    }
    const flight = bulb.inFlight;
    if (!flight || flight.sequence !== h.sequence) return;
    const expected = flight.out.expect;
    const matches =
      expected === 'ack'
        ? message.type === 'Acknowledgement'
        : message.type === expected || message.type === 'StateUnhandled';
    if (!matches) return;
    timers.clearTimeout(flight.timer);
    bulb.inFlight = null;
    flight.out.resolve(message);
    pump(bulb);
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
        `LIFX LAN: ${label(bulb)} moved from ${bulb.address}:${bulb.port} to ${from.address}:${message.port}`,
      );
      bulb.address = from.address;
      bulb.port = message.port;
    }
    if (!bulb.reachable) answered(bulb);
  }

  /** An unreachable bulb answered: usable again, and its last look is sent again. */
  function answered(bulb: LanBulb): void {
    if (bulb.reachable || closed) return;
    bulb.reachable = true;
    log(`LIFX LAN: ${label(bulb)} answers again`);
    if (bulb.isLight === null) void query(bulb);
    const look = bulb.lastLook;
    if (look)
      void write(
        bulb,
        stateWrites({ on: look.on, color: look.color, brightness: look.brightness, transitionMs: 0 }),
      ).catch(() => undefined);
  }

  // --- sending, one bulb at a time -------------------------------------------------------------

  function pump(bulb: LanBulb): void {
    if (closed || !bulb.reachable || bulb.inFlight || bulb.paceTimer !== null) return;
    const out = bulb.queue[0];
    if (!out) return;
    const wait = bulb.lastSentAt + minGapMs - timers.now();
    if (wait > 0) {
      bulb.paceTimer = timers.setTimeout(() => {
        bulb.paceTimer = null;
        pump(bulb);
      }, wait);
      return;
    }
    bulb.queue.shift();
    const seq = nextSequence();
    const bytes = encodeLifxPacket(header(bulb.mac, seq, out.expect === 'ack'), out.message);
    bulb.inFlight = { out, bytes, sequence: seq, attempts: 1, timer: null };
    bulb.inFlight.timer = timers.setTimeout(() => resend(bulb), resendAfterMs);
    bulb.lastSentAt = timers.now();
    sendRaw(bytes, bulb.port, bulb.address);
  }

  /** The same bytes again (same sequence), until the attempts are spent. */
  function resend(bulb: LanBulb): void {
    const flight = bulb.inFlight;
    if (!flight || closed) return;
    if (flight.attempts >= attempts) {
      bulb.inFlight = null;
      flight.out.reject(new LightError('timeout', `LIFX bulb "${label(bulb)}" is not answering`));
      unreachable(bulb);
      return;
    }
    flight.attempts += 1;
    flight.timer = timers.setTimeout(() => resend(bulb), resendAfterMs);
    bulb.lastSentAt = timers.now();
    sendRaw(flight.bytes, bulb.port, bulb.address);
  }

  function unreachable(bulb: LanBulb): void {
    if (!bulb.reachable) return;
    bulb.reachable = false;
    timers.clearTimeout(bulb.paceTimer);
    bulb.paceTimer = null;
    const dropped = bulb.queue;
    bulb.queue = [];
    for (const out of dropped) out.resolve(null);
    const message = `LIFX bulb "${label(bulb)}" is not answering`;
    log(`LIFX LAN: ${message} (${bulb.address}:${bulb.port})`);
    events.emit({ type: 'error', error: { kind: 'timeout', message } });
    scheduleProbe();
  }

  function enqueue(bulb: LanBulb, out: Omit<Outgoing, 'resolve' | 'reject'>): Promise<LifxMessage | null> {
    return new Promise((resolve, reject) => {
      bulb.queue.push({ ...out, resolve, reject });
      pump(bulb);
    });
  }

  /** Colour and power writes: a newer one replaces the queued (and the in-flight) one of its group. */
  function write(bulb: LanBulb, writes: LanWrite[]): Promise<void> {
    if (closed) return Promise.reject(new LightError('not-configured', CLOSED));
    const groups = new Set(writes.map((w) => w.group));
    bulb.queue = bulb.queue.filter((out) => {
      if (out.group === null || !groups.has(out.group)) return true;
      out.resolve(null);
      return false;
    });
    const flight = bulb.inFlight;
    if (flight?.out.group && groups.has(flight.out.group)) {
      // Its resends would undo the newer write.
      timers.clearTimeout(flight.timer);
      bulb.inFlight = null;
      flight.out.resolve(null);
    }
    // An unreachable bulb gets its last look when it answers again.
    if (!bulb.reachable) return Promise.resolve();
    return Promise.all(
      writes.map((w) => enqueue(bulb, { message: w.message, group: w.group, expect: 'ack' })),
    ).then(() => undefined);
  }

  async function query(bulb: LanBulb): Promise<void> {
    try {
      const reply = await enqueue(bulb, { message: { type: 'LightGet' }, group: null, expect: 'LightState' });
      if (reply?.type === 'LightState') {
        bulb.isLight = true;
        bulb.label = reply.label || bulb.label;
        const color = hsbkToColor(reply.color);
        bulb.lastColor ??= reply.power === 0 ? '#000000' : toHex(color, color.brightness);
      } else if (reply?.type === 'StateUnhandled') {
        // A LIFX Switch or another non-light (§1.3): not a light to drive.
        bulb.isLight = false;
        log(`LIFX LAN: ${bulb.id} is not a light (StateUnhandled): left out`);
      }
    } catch {
      // unreachable: reported there
    }
  }

  // --- discovery, probes and re-scans ------------------------------------------------------------

  function sendGetService(): void {
    const seq = nextSequence();
    discoverySequences.push(seq);
    if (discoverySequences.length > 16) discoverySequences.shift();
    const bytes = encodeLifxPacket(header(LIFX_BROADCAST_TARGET, seq, false, true), { type: 'GetService' });
    for (const target of targets) sendRaw(bytes, target.port, target.host);
    if (options.broadcast) sendRaw(bytes, LIFX_LAN_PORT, BROADCAST_ADDRESS);
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

  function lights(): LanBulb[] {
    return [...bulbs.values()].filter((b) => b.isLight !== false);
  }

  function deviceList(): LightDeviceInfo[] {
    return lights().map((b) => ({
      id: b.id,
      label: label(b),
      name: label(b),
      type: LIGHT_TYPE,
      connected: b.reachable,
    }));
  }

  function scan(): Promise<LightDeviceInfo[]> {
    scanning ??= (async () => {
      try {
        await open();
        // Three GetService in the window: one lost datagram does not hide a bulb.
        sendGetService();
        void wait(windowMs / 3).then(() => !closed && sendGetService());
        void wait((2 * windowMs) / 3).then(() => !closed && sendGetService());
        await wait(windowMs);
        if (closed) throw new LightError('not-configured', CLOSED);
        await Promise.all([...bulbs.values()].filter((b) => b.isLight === null && b.reachable).map(query));
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
      scan().catch((error: unknown) => log(`LIFX LAN: re-scan failed: ${String(error)}`));
    }, rescanIntervalMs);
  }

  function scheduleProbe(): void {
    if (probeTimer !== null || closed) return;
    probeTimer = timers.setTimeout(probe, probeIntervalMs);
  }

  function probe(): void {
    probeTimer = null;
    const lost = [...bulbs.values()].filter((b) => !b.reachable);
    if (lost.length === 0 || closed) return;
    probeTicks += 1;
    for (const bulb of lost) {
      const payload = new Uint8Array(randomBytes(LIFX_ECHO_SIZE));
      bulb.lastSentAt = timers.now();
      sendRaw(
        encodeLifxPacket(header(bulb.mac, nextSequence(), false), { type: 'EchoRequest', payload }),
        bulb.port,
        bulb.address,
      );
    }
    // A bulb that moved answers no echo at its old address: look for its MAC again.
    if (probeTicks % PROBES_PER_RESCAN === 0 && !scanning)
      scan().catch((error: unknown) => log(`LIFX LAN: re-scan failed: ${String(error)}`));
    scheduleProbe();
  }

  // --- the LightDriver --------------------------------------------------------------------------

  function targetsOf(ids: readonly string[]): LanBulb[] {
    if (ids.length === 0) return lights();
    const list: LanBulb[] = [];
    const unknown: string[] = [];
    for (const id of ids) {
      const bulb = bulbs.get(normaliseLifxId(id));
      if (bulb && bulb.isLight !== false) list.push(bulb);
      else unknown.push(id);
    }
    if (unknown.length > 0)
      events.emit({ type: 'warning', message: `Unknown LIFX LAN lights: ${unknown.join(', ')}` });
    return list;
  }

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    if (closed) throw new LightError('not-configured', CLOSED);
    const on = !isOff(state);
    await Promise.all(
      targetsOf(ids).map((bulb) => {
        bulb.lastLook = { on, color: state.color, brightness: state.brightness };
        bulb.lastColor = on ? toHex(state.color, state.brightness) : '#000000';
        return write(bulb, stateWrites(state));
      }),
    );
  }

  async function playStep(ids: readonly string[], step: Exclude<LightStep, { kind: 'restore' }>) {
    const look = { on: true, color: step.color, brightness: step.brightness };
    if (step.kind === 'set-state' || !nativeStrobe)
      return setState(ids, { ...look, transitionMs: step.kind === 'set-state' ? step.transitionMs : 0 });
    if (closed) throw new LightError('not-configured', CLOSED);
    await Promise.all(
      targetsOf(ids).map((bulb) => {
        // The transient waveform returns the bulb to the strobe's colour.
        bulb.lastLook = look;
        bulb.lastColor = toHex(step.color, step.brightness);
        return write(bulb, strobeWrites(step));
      }),
    );
  }

  return {
    provider: 'lifx_lan',
    nativeStrobe,
    // Without the waveform every change costs up to two messages at 50 ms each.
    minStrobeHalfPeriodMs: () => (nativeStrobe ? 0 : 2 * minGapMs),
    async listDevices() {
      if (!scanned) return scan();
      return deviceList();
    },
    discover: scan,
    devices: () =>
      lights().map((b) => ({
        id: b.id,
        mac: b.mac,
        label: label(b),
        address: b.address,
        port: b.port,
        reachable: b.reachable,
        lastColor: b.lastColor,
      })),
    setState,
    playStep,
    cancelPending() {
      for (const bulb of bulbs.values())
        bulb.queue = bulb.queue.filter((out) => {
          if (out.group === null) return true;
          out.resolve(null);
          return false;
        });
    },
    pendingCount: () => [...bulbs.values()].reduce((n, b) => n + b.queue.length, 0),
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      timers.clearTimeout(rescanTimer);
      timers.clearTimeout(probeTimer);
      for (const [handle, resolve] of scanWaits) {
        timers.clearTimeout(handle);
        resolve();
      }
      scanWaits.clear();
      for (const bulb of bulbs.values()) {
        timers.clearTimeout(bulb.paceTimer);
        if (bulb.inFlight) {
          timers.clearTimeout(bulb.inFlight.timer);
          bulb.inFlight.out.resolve(null);
          bulb.inFlight = null;
        }
        for (const out of bulb.queue) out.resolve(null);
        bulb.queue = [];
      }
      const s = socket ?? (opening ? await opening.catch(() => null) : null);
      socket = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
