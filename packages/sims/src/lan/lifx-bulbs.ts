import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import {
  decodeLifxPacket,
  encodeLifxPacket,
  type Hsbk,
  LIFX_POWER_ON,
  LIFX_SERVICE_UDP,
  LIFX_TYPE,
  LIFX_WAVEFORM,
  type LifxHeader,
  type LifxMessage,
  skewRatioFromWire,
} from '@flaglight/core';

/** The loopback address every virtual bulb binds to (lan-lights.md §5: never a LAN address). */
export const LAN_SIM_HOST = '127.0.0.1';
export const LIFX_LAN_DEMO_BULB_COUNT = 6;
/** LIFX's vendor id and a colour product (LIFX Color, products.json id 91). */
export const LIFX_VENDOR = 1;
export const LIFX_SIM_PRODUCT = 91;
const LOG_LIMIT = 1000;

export interface LifxWaveformRecord {
  waveform: number;
  waveformName: string;
  transient: boolean;
  color: Hsbk;
  periodMs: number;
  cycles: number;
  /** Wire i16 and as a 0–1 ratio. */
  skewRatio: number;
  skew: number;
  /** Components the waveform changes (all four for SetWaveform 103). */
  set: { hue: boolean; saturation: boolean; brightness: boolean; kelvin: boolean };
  /** The colour it started from, and when (the simulator's clock, ms). */
  from: Hsbk;
  startedAt: number;
}

export interface LifxBulbFault {
  /** Share of received datagrams dropped, 0–100 (neither applied nor answered). */
  dropPercent: number;
  /** Each datagram is handled this long after it arrives. */
  delayMs: number;
  /** Silent: ignores everything. */
  offline: boolean;
}

export interface LifxReceived {
  /** The simulator's clock (ms since epoch) and a monotonic high-resolution time (ms). */
  at: number;
  monotonicMs: number;
  from: string;
  /** The socket it came to: the shared discovery port or the bulb's own. */
  via: 'discovery' | 'bulb';
  type: string;
  typeNumber: number;
  source: number;
  sequence: number;
  ackRequired: boolean;
  resRequired: boolean;
  message: LifxMessage;
  /** Why it was neither applied nor answered, if it was not (a fault). */
  ignored: 'dropped' | 'offline' | null;
}

export interface VirtualLifxBulbView {
  id: string;
  label: string;
  /** The address and port its socket is bound to (StateService names the port). */
  address: string;
  port: number;
  power: number;
  on: boolean;
  /** The colour now, waveform included. */
  color: Hsbk;
  /** The colour set by SetColor (what a transient waveform returns to). */
  baseColor: Hsbk;
  waveformRunning: boolean;
  lastWaveform: LifxWaveformRecord | null;
  fault: LifxBulbFault;
  received: number;
}

interface Bulb {
  id: string;
  label: string;
  socket: Socket;
  port: number;
  power: number;
  color: Hsbk;
  waveform: LifxWaveformRecord | null;
  lastWaveform: LifxWaveformRecord | null;
  fault: LifxBulbFault;
  log: LifxReceived[];
  received: number;
}

export interface VirtualLifxBulbsOptions {
  count?: number;
  /** Port of the discovery socket, which answers GetService for every bulb; 0 = ephemeral. */
  discoveryPort?: number;
  now?: () => number;
  /** Chance source for the drop fault (tests may pass a fixed sequence). */
  random?: () => number;
}

export interface VirtualLifxBulbs {
  /** Where a client sends GetService to find every bulb: the bound address (127.0.0.1) and port. */
  host: string;
  discoveryPort: number;
  list(): VirtualLifxBulbView[];
  get(id: string): VirtualLifxBulbView | undefined;
  /** Received datagrams of one bulb, oldest first (the latency bench reads it). */
  log(id: string): LifxReceived[];
  /** Faults for one bulb, or every bulb when `id` is undefined. */
  setFault(id: string | undefined, fault: Partial<LifxBulbFault>): void;
  reset(): void;
  close(): Promise<void>;
}

const LABELS = [
  'Lounge',
  'Kitchen',
  'Desk',
  'Hallway',
  'Bedroom',
  'Porch',
  'Study',
  'Garage',
  'Bath',
  'Attic',
];
const WAVEFORM_NAMES = new Map<number, string>(Object.entries(LIFX_WAVEFORM).map(([name, n]) => [n, name]));
const NO_FAULT: LifxBulbFault = { dropPercent: 0, delayMs: 0, offline: false };
const WARM_WHITE: Hsbk = { hue: 0, saturation: 0, brightness: 65535, kelvin: 3500 };

function macOf(index: number): string {
  return `d0:73:d5:1a:00:${(index + 1).toString(16).padStart(2, '0')}`;
}

function bindSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(port, LAN_SIM_HOST, () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

function closeSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve();
    }
  });
}

/** Fraction 0–1 of the way from the start colour to the waveform colour at `phase` (0–1) of a cycle. */
function waveformLevel(record: LifxWaveformRecord, phase: number): number {
  switch (record.waveform) {
    case LIFX_WAVEFORM.SAW:
      return phase;
    case LIFX_WAVEFORM.SINE:
      return (1 - Math.cos(2 * Math.PI * phase)) / 2;
    case LIFX_WAVEFORM.HALF_SINE:
      return Math.sin(Math.PI * phase);
    case LIFX_WAVEFORM.TRIANGLE:
      return phase < 0.5 ? 2 * phase : 2 - 2 * phase;
    case LIFX_WAVEFORM.PULSE:
      // The waveform colour for a duty of 1 − skew, then the start colour (lan-lights.md §1.5).
      return phase < 1 - record.skew ? 1 : 0;
    default:
      return phase;
  }
}

function mix(from: Hsbk, to: Hsbk, level: number, set: LifxWaveformRecord['set']): Hsbk {
  const lerp = (a: number, b: number) => Math.round(a + (b - a) * level);
  // Hue goes the short way round the wheel.
  let dh = to.hue - from.hue;
  if (dh > 32768) dh -= 65536;
  if (dh < -32768) dh += 65536;
  return {
    hue: set.hue ? (Math.round(from.hue + dh * level) + 65536) % 65536 : from.hue,
    saturation: set.saturation ? lerp(from.saturation, to.saturation) : from.saturation,
    brightness: set.brightness ? lerp(from.brightness, to.brightness) : from.brightness,
    kelvin: set.kelvin ? lerp(from.kelvin, to.kelvin) : from.kelvin,
  };
}

/**
 * Virtual LIFX bulbs on the LAN protocol (lan-lights.md §1, §3), each on its own UDP port on
 * 127.0.0.1, plus one discovery port that answers GetService for all of them (each StateService
 * names that bulb's port) and routes other messages by target MAC. A client finds them with one
 * unicast GetService and drives each at 127.0.0.1 and the port its StateService names.
 */
export async function startVirtualLifxBulbs(
  options: VirtualLifxBulbsOptions = {},
): Promise<VirtualLifxBulbs> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const count = options.count ?? LIFX_LAN_DEMO_BULB_COUNT;
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const discovery = await bindSocket(options.discoveryPort ?? 0);
  const bulbs: Bulb[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const socket = await bindSocket(0);
      bulbs.push({
        id: macOf(i),
        label:
          LABELS[i % LABELS.length] + (i >= LABELS.length ? ` ${Math.floor(i / LABELS.length) + 1}` : ''),
        socket,
        port: socket.address().port,
        power: LIFX_POWER_ON,
        color: { ...WARM_WHITE },
        waveform: null,
        lastWaveform: null,
        fault: { ...NO_FAULT },
        log: [],
        received: 0,
      });
    }
  } catch (error) {
    await Promise.all([discovery, ...bulbs.map((b) => b.socket)].map(closeSocket));
    throw error;
  }

  /** Ends a finished waveform: a non-transient one leaves its colour set (§1.5). */
  function settle(bulb: Bulb, at: number): void {
    const w = bulb.waveform;
    if (!w) return;
    if (at - w.startedAt < w.periodMs * w.cycles) return;
    if (!w.transient) bulb.color = mix(w.from, w.color, 1, w.set);
    bulb.waveform = null;
  }

  function currentColor(bulb: Bulb, at: number): Hsbk {
    settle(bulb, at);
    const w = bulb.waveform;
    if (!w || w.periodMs === 0) return { ...bulb.color };
    const elapsed = Math.max(0, at - w.startedAt);
    const phase = (elapsed % w.periodMs) / w.periodMs;
    return mix(w.from, w.color, waveformLevel(w, phase), w.set);
  }

  function view(bulb: Bulb): VirtualLifxBulbView {
    const at = now();
    const color = currentColor(bulb, at);
    return {
      id: bulb.id,
      label: bulb.label,
      address: bulb.socket.address().address,
      port: bulb.port,
      power: bulb.power,
      on: bulb.power > 0,
      color,
      baseColor: { ...bulb.color },
      waveformRunning: bulb.waveform !== null,
      lastWaveform: bulb.lastWaveform,
      fault: { ...bulb.fault },
      received: bulb.received,
    };
  }

  function send(socket: Socket, bulb: Bulb, request: LifxHeader, message: LifxMessage, to: RemoteInfo): void {
    if (closed) return;
    const header: LifxHeader = {
      tagged: false,
      source: request.source,
      target: bulb.id,
      resRequired: false,
      ackRequired: false,
      sequence: request.sequence,
    };
    socket.send(encodeLifxPacket(header, message), to.port, to.address);
  }

  function startWaveform(bulb: Bulb, at: number, message: LifxMessage): void {
    if (message.type !== 'LightSetWaveform' && message.type !== 'LightSetWaveformOptional') return;
    const from = currentColor(bulb, at);
    const set =
      message.type === 'LightSetWaveformOptional'
        ? {
            hue: message.setHue,
            saturation: message.setSaturation,
            brightness: message.setBrightness,
            kelvin: message.setKelvin,
          }
        : { hue: true, saturation: true, brightness: true, kelvin: true };
    const record: LifxWaveformRecord = {
      waveform: message.waveform,
      waveformName: WAVEFORM_NAMES.get(message.waveform) ?? `unknown ${message.waveform}`,
      transient: message.transient,
      color: message.color,
      periodMs: message.periodMs,
      cycles: message.cycles,
      skewRatio: message.skewRatio,
      skew: skewRatioFromWire(message.skewRatio),
      set,
      from,
      startedAt: at,
    };
    // The waveform runs from the colour showing now; a transient one returns to it afterwards.
    bulb.color = from;
    bulb.waveform = record;
    bulb.lastWaveform = record;
  }

  /** Applies one message to a bulb and answers it as a protocol-v2 bulb does (§1.2, §3). */
  function handle(
    bulb: Bulb,
    socket: Socket,
    header: LifxHeader,
    message: LifxMessage,
    from: RemoteInfo,
  ): void {
    const at = now();
    const lightState = (): LifxMessage => ({
      type: 'LightState',
      color: currentColor(bulb, at),
      power: bulb.power,
      label: bulb.label,
    });
    // LIFX: the State answering a Set is likely the state before the change.
    let answer: LifxMessage | undefined;
    let isSet = false;
    switch (message.type) {
      case 'GetService':
        answer = { type: 'StateService', service: LIFX_SERVICE_UDP, port: bulb.port };
        break;
      case 'GetPower':
        answer = { type: 'StatePower', level: bulb.power };
        break;
      case 'LightGetPower':
        answer = { type: 'LightStatePower', level: bulb.power };
        break;
      case 'SetPower':
      case 'LightSetPower':
        isSet = true;
        answer =
          message.type === 'SetPower'
            ? { type: 'StatePower', level: bulb.power }
            : { type: 'LightStatePower', level: bulb.power };
        bulb.power = message.level === 0 ? 0 : LIFX_POWER_ON;
        break;
      case 'GetLabel':
        answer = { type: 'StateLabel', label: bulb.label };
        break;
      case 'GetVersion':
        answer = { type: 'StateVersion', vendor: LIFX_VENDOR, product: LIFX_SIM_PRODUCT };
        break;
      case 'EchoRequest':
        answer = { type: 'EchoResponse', payload: message.payload };
        break;
      case 'LightGet':
        answer = lightState();
        break;
      case 'LightSetColor':
        isSet = true;
        answer = lightState();
        // A later SetColor stops a running waveform.
        bulb.waveform = null;
        bulb.color = { ...message.color };
        break;
      case 'LightSetWaveform':
      case 'LightSetWaveformOptional':
        isSet = true;
        answer = lightState();
        startWaveform(bulb, at, message);
        break;
      case 'Unknown':
        answer = { type: 'StateUnhandled', unhandledType: message.typeNumber };
        break;
      default:
        // States and acks sent to a bulb: nothing to do.
        return;
    }
    if (header.ackRequired) send(socket, bulb, header, { type: 'Acknowledgement' }, from);
    if (answer && (!isSet || header.resRequired)) send(socket, bulb, header, answer, from);
  }

  function receive(
    via: 'discovery' | 'bulb',
    socket: Socket,
    own: Bulb | undefined,
    datagram: Buffer,
    from: RemoteInfo,
  ) {
    if (closed) return;
    let packet;
    try {
      packet = decodeLifxPacket(new Uint8Array(datagram.buffer, datagram.byteOffset, datagram.byteLength));
    } catch {
      return; // Not a LIFX datagram: a real bulb ignores it too.
    }
    const { header, message } = packet;
    const everyone = header.target === '00:00:00:00:00:00';
    const addressed = own
      ? everyone || header.target === own.id
        ? [own]
        : []
      : bulbs.filter((b) => everyone || b.id === header.target);
    for (const bulb of addressed) {
      const ignored = bulb.fault.offline
        ? 'offline'
        : bulb.fault.dropPercent > 0 && random() * 100 < bulb.fault.dropPercent
          ? 'dropped'
          : null;
      bulb.received += 1;
      bulb.log.push({
        at: now(),
        monotonicMs: performance.now(),
        from: `${from.address}:${from.port}`,
        via,
        type: message.type === 'Unknown' ? 'Unknown' : message.type,
        typeNumber: message.type === 'Unknown' ? message.typeNumber : LIFX_TYPE[message.type],
        source: header.source,
        sequence: header.sequence,
        ackRequired: header.ackRequired,
        resRequired: header.resRequired,
        message,
        ignored,
      });
      if (bulb.log.length > LOG_LIMIT) bulb.log.splice(0, bulb.log.length - LOG_LIMIT);
      if (ignored) continue;
      if (bulb.fault.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          handle(bulb, socket, header, message, from);
        }, bulb.fault.delayMs);
        timers.add(timer);
      } else {
        handle(bulb, socket, header, message, from);
      }
    }
  }

  discovery.on('message', (datagram, from) => receive('discovery', discovery, undefined, datagram, from));
  for (const bulb of bulbs)
    bulb.socket.on('message', (datagram, from) => receive('bulb', bulb.socket, bulb, datagram, from));

  const find = (id: string) => bulbs.find((b) => b.id === id.toLowerCase());

  return {
    host: discovery.address().address,
    discoveryPort: discovery.address().port,
    list: () => bulbs.map(view),
    get: (id) => {
      const bulb = find(id);
      return bulb ? view(bulb) : undefined;
    },
    log: (id) => [...(find(id)?.log ?? [])],
    setFault(id, fault) {
      for (const bulb of id === undefined ? bulbs : bulbs.filter((b) => b.id === id.toLowerCase()))
        bulb.fault = {
          dropPercent: Math.min(100, Math.max(0, fault.dropPercent ?? bulb.fault.dropPercent)),
          delayMs: Math.max(0, fault.delayMs ?? bulb.fault.delayMs),
          offline: fault.offline ?? bulb.fault.offline,
        };
    },
    reset() {
      for (const bulb of bulbs) {
        bulb.power = LIFX_POWER_ON;
        bulb.color = { ...WARM_WHITE };
        bulb.waveform = null;
        bulb.lastWaveform = null;
        bulb.fault = { ...NO_FAULT };
        bulb.log = [];
        bulb.received = 0;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all([discovery, ...bulbs.map((b) => b.socket)].map(closeSocket));
    },
  };
}
