/**
 * LIFX LAN protocol codec (reference/lan-lights.md §1): one message per UDP datagram, a 36-byte
 * little-endian header and a typed payload. Pure: Uint8Array and DataView only, so the companion's
 * driver and the LAN simulator share it and it runs anywhere.
 */

export const LIFX_LAN_PORT = 56700;
export const LIFX_HEADER_SIZE = 36;
export const LIFX_PROTOCOL = 1024;
export const LIFX_LABEL_SIZE = 32;
export const LIFX_ECHO_SIZE = 64;
/** Wire level of a powered-on device (0 = off). */
export const LIFX_POWER_ON = 65535;
/** The all-zero target: every device (discovery, with `tagged`). */
export const LIFX_BROADCAST_TARGET = '00:00:00:00:00:00';

/** Message type numbers (§1.3). */
export const LIFX_TYPE = {
  GetService: 2,
  StateService: 3,
  GetPower: 20,
  SetPower: 21,
  StatePower: 22,
  GetLabel: 23,
  StateLabel: 25,
  GetVersion: 32,
  StateVersion: 33,
  Acknowledgement: 45,
  EchoRequest: 58,
  EchoResponse: 59,
  LightGet: 101,
  LightSetColor: 102,
  LightSetWaveform: 103,
  LightState: 107,
  LightGetPower: 116,
  LightSetPower: 117,
  LightStatePower: 118,
  LightSetWaveformOptional: 119,
  StateUnhandled: 223,
} as const;

export type LifxTypeName = keyof typeof LIFX_TYPE;

export const LIFX_WAVEFORM = { SAW: 0, SINE: 1, HALF_SINE: 2, TRIANGLE: 3, PULSE: 4 } as const;

export const LIFX_SERVICE_UDP = 1;

/** Hue, saturation, brightness, kelvin: each a wire u16 (kelvin in K). */
export interface Hsbk {
  hue: number;
  saturation: number;
  brightness: number;
  kelvin: number;
}

export interface LifxHeader {
  tagged: boolean;
  /** Set by the client, echoed in replies; non-zero. */
  source: number;
  /** MAC as `d0:73:d5:12:34:56`; all zero = every device. */
  target: string;
  resRequired: boolean;
  ackRequired: boolean;
  /** u8, wraps, echoed. */
  sequence: number;
}

export interface LifxWaveformFields {
  transient: boolean;
  color: Hsbk;
  periodMs: number;
  cycles: number;
  /** Wire i16: round(ratio × 65535) − 32768 (see {@link skewRatioToWire}). */
  skewRatio: number;
  waveform: number;
}

/** Every message the codec knows, tagged by its protocol name (§1.3). */
export type LifxMessage =
  | { type: 'GetService' }
  | { type: 'StateService'; service: number; port: number }
  | { type: 'GetPower' }
  | { type: 'SetPower'; level: number }
  | { type: 'StatePower'; level: number }
  | { type: 'GetLabel' }
  | { type: 'StateLabel'; label: string }
  | { type: 'GetVersion' }
  | { type: 'StateVersion'; vendor: number; product: number }
  | { type: 'Acknowledgement' }
  | { type: 'EchoRequest'; payload: Uint8Array }
  | { type: 'EchoResponse'; payload: Uint8Array }
  | { type: 'LightGet' }
  | { type: 'LightSetColor'; color: Hsbk; durationMs: number }
  | ({ type: 'LightSetWaveform' } & LifxWaveformFields)
  | { type: 'LightState'; color: Hsbk; power: number; label: string }
  | { type: 'LightGetPower' }
  | { type: 'LightSetPower'; level: number; durationMs: number }
  | { type: 'LightStatePower'; level: number }
  | ({
      type: 'LightSetWaveformOptional';
      setHue: boolean;
      setSaturation: boolean;
      setBrightness: boolean;
      setKelvin: boolean;
    } & LifxWaveformFields)
  | { type: 'StateUnhandled'; unhandledType: number }
  /** A type this codec does not know: its number and raw payload. */
  | { type: 'Unknown'; typeNumber: number; payload: Uint8Array };

export interface LifxPacket {
  header: LifxHeader;
  message: LifxMessage;
}

/** A datagram that is not a LIFX message (wrong size, protocol or payload length). */
export class LifxPacketError extends Error {
  override name = 'LifxPacketError';
}

const PAYLOAD_SIZE: Record<LifxTypeName, number> = {
  GetService: 0,
  StateService: 5,
  GetPower: 0,
  SetPower: 2,
  StatePower: 2,
  GetLabel: 0,
  StateLabel: LIFX_LABEL_SIZE,
  GetVersion: 0,
  StateVersion: 12,
  Acknowledgement: 0,
  EchoRequest: LIFX_ECHO_SIZE,
  EchoResponse: LIFX_ECHO_SIZE,
  LightGet: 0,
  LightSetColor: 13,
  LightSetWaveform: 21,
  LightState: 52,
  LightGetPower: 0,
  LightSetPower: 6,
  LightStatePower: 2,
  LightSetWaveformOptional: 25,
  StateUnhandled: 2,
};

const TYPE_NAMES = new Map<number, LifxTypeName>(
  Object.entries(LIFX_TYPE).map(([name, number]) => [number, name as LifxTypeName]),
);

/** Protocol name of a type number, or undefined when the codec does not know it. */
export function lifxTypeName(typeNumber: number): LifxTypeName | undefined {
  return TYPE_NAMES.get(typeNumber);
}

/** `d0:73:d5:12:34:56` → 6 bytes; throws on anything else. */
export function parseMac(mac: string): Uint8Array {
  const parts = mac.split(':');
  if (parts.length !== 6 || parts.some((p) => !/^[0-9a-fA-F]{2}$/.test(p)))
    throw new LifxPacketError(`not a MAC address: ${mac}`);
  return Uint8Array.from(parts.map((p) => parseInt(p, 16)));
}

export function formatMac(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join(':');
}

function encodeUtf8(text: string): number[] {
  const out: number[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    const bytes =
      cp < 0x80
        ? [cp]
        : cp < 0x800
          ? [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)]
          : cp < 0x10000
            ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
            : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
    // A label is 32 bytes: cut at a character boundary, never inside one.
    if (out.length + bytes.length > LIFX_LABEL_SIZE) break;
    out.push(...bytes);
  }
  return out;
}

function decodeUtf8(bytes: Uint8Array): string {
  let text = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const extra = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
    if (extra > 0 && i + extra >= bytes.length) break;
    let cp = extra === 0 ? b : b & (0x3f >> extra);
    for (let k = 1; k <= extra; k += 1) cp = (cp << 6) | ((bytes[i + k] ?? 0) & 0x3f);
    text += b >= 0x80 && extra === 0 ? '\ufffd' : String.fromCodePoint(cp);
    i += extra + 1;
  }
  return text;
}

/** A label as its 32 zero-padded bytes. */
export function encodeLabel(label: string): Uint8Array {
  const out = new Uint8Array(LIFX_LABEL_SIZE);
  out.set(encodeUtf8(label));
  return out;
}

/** A 32-byte label field: up to the first NUL (labels are not always NUL-terminated). */
export function decodeLabel(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return decodeUtf8(end === -1 ? bytes : bytes.subarray(0, end));
}

function writeHsbk(view: DataView, offset: number, color: Hsbk): void {
  view.setUint16(offset, color.hue, true);
  view.setUint16(offset + 2, color.saturation, true);
  view.setUint16(offset + 4, color.brightness, true);
  view.setUint16(offset + 6, color.kelvin, true);
}

function readHsbk(view: DataView, offset: number): Hsbk {
  return {
    hue: view.getUint16(offset, true),
    saturation: view.getUint16(offset + 2, true),
    brightness: view.getUint16(offset + 4, true),
    kelvin: view.getUint16(offset + 6, true),
  };
}

function writeWaveform(view: DataView, p: number, m: LifxWaveformFields): void {
  view.setUint8(p + 1, m.transient ? 1 : 0);
  writeHsbk(view, p + 2, m.color);
  view.setUint32(p + 10, m.periodMs, true);
  view.setFloat32(p + 14, m.cycles, true);
  view.setInt16(p + 18, m.skewRatio, true);
  view.setUint8(p + 20, m.waveform);
}

function readWaveform(view: DataView, p: number): LifxWaveformFields {
  return {
    transient: view.getUint8(p + 1) !== 0,
    color: readHsbk(view, p + 2),
    periodMs: view.getUint32(p + 10, true),
    cycles: view.getFloat32(p + 14, true),
    skewRatio: view.getInt16(p + 18, true),
    waveform: view.getUint8(p + 20),
  };
}

function payloadSize(message: LifxMessage): number {
  return message.type === 'Unknown' ? message.payload.length : PAYLOAD_SIZE[message.type];
}

function typeNumber(message: LifxMessage): number {
  return message.type === 'Unknown' ? message.typeNumber : LIFX_TYPE[message.type];
}

/** One datagram: header + payload (§1.2, §1.3). Reserved fields are written as 0. */
export function encodeLifxPacket(header: LifxHeader, message: LifxMessage): Uint8Array {
  const size = LIFX_HEADER_SIZE + payloadSize(message);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, size, true);
  view.setUint16(2, LIFX_PROTOCOL | 0x1000 | (header.tagged ? 0x2000 : 0), true);
  view.setUint32(4, header.source >>> 0, true);
  bytes.set(parseMac(header.target), 8);
  view.setUint8(22, (header.resRequired ? 1 : 0) | (header.ackRequired ? 2 : 0));
  view.setUint8(23, header.sequence & 0xff);
  view.setUint16(32, typeNumber(message), true);
  const p = LIFX_HEADER_SIZE;
  switch (message.type) {
    case 'StateService':
      view.setUint8(p, message.service);
      view.setUint32(p + 1, message.port, true);
      break;
    case 'SetPower':
    case 'StatePower':
    case 'LightStatePower':
      view.setUint16(p, message.level, true);
      break;
    case 'LightSetPower':
      view.setUint16(p, message.level, true);
      view.setUint32(p + 2, message.durationMs, true);
      break;
    case 'StateLabel':
      bytes.set(encodeLabel(message.label), p);
      break;
    case 'StateVersion':
      view.setUint32(p, message.vendor, true);
      view.setUint32(p + 4, message.product, true);
      break;
    case 'EchoRequest':
    case 'EchoResponse':
      bytes.set(message.payload.subarray(0, LIFX_ECHO_SIZE), p);
      break;
    case 'LightSetColor':
      writeHsbk(view, p + 1, message.color);
      view.setUint32(p + 9, message.durationMs, true);
      break;
    case 'LightSetWaveform':
      writeWaveform(view, p, message);
      break;
    case 'LightSetWaveformOptional':
      writeWaveform(view, p, message);
      view.setUint8(p + 21, message.setHue ? 1 : 0);
      view.setUint8(p + 22, message.setSaturation ? 1 : 0);
      view.setUint8(p + 23, message.setBrightness ? 1 : 0);
      view.setUint8(p + 24, message.setKelvin ? 1 : 0);
      break;
    case 'LightState':
      writeHsbk(view, p, message.color);
      view.setUint16(p + 10, message.power, true);
      bytes.set(encodeLabel(message.label), p + 12);
      break;
    case 'StateUnhandled':
      view.setUint16(p, message.unhandledType, true);
      break;
    case 'Unknown':
      bytes.set(message.payload, p);
      break;
    default:
      break;
  }
  return bytes;
}

/**
 * Decodes one datagram. Reserved bits are masked (§1.2); a datagram whose size field, protocol
 * or payload length is wrong throws {@link LifxPacketError}. Unknown types decode as `Unknown`.
 */
export function decodeLifxPacket(datagram: Uint8Array): LifxPacket {
  if (datagram.length < LIFX_HEADER_SIZE)
    throw new LifxPacketError(`short datagram (${datagram.length} bytes)`);
  const view = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  const size = view.getUint16(0, true);
  if (size !== datagram.length) throw new LifxPacketError(`size field ${size} ≠ datagram ${datagram.length}`);
  const protocolField = view.getUint16(2, true);
  if ((protocolField & 0x0fff) !== LIFX_PROTOCOL)
    throw new LifxPacketError(`protocol ${protocolField & 0x0fff} is not ${LIFX_PROTOCOL}`);
  const flags = view.getUint8(22);
  const header: LifxHeader = {
    tagged: (protocolField & 0x2000) !== 0,
    source: view.getUint32(4, true),
    target: formatMac(datagram.subarray(8, 14)),
    resRequired: (flags & 1) !== 0,
    ackRequired: (flags & 2) !== 0,
    sequence: view.getUint8(23),
  };
  const number = view.getUint16(32, true);
  const name = lifxTypeName(number);
  const p = LIFX_HEADER_SIZE;
  const payload = datagram.slice(p);
  if (name === undefined) return { header, message: { type: 'Unknown', typeNumber: number, payload } };
  if (payload.length !== PAYLOAD_SIZE[name])
    throw new LifxPacketError(`${name} payload is ${payload.length} bytes, not ${PAYLOAD_SIZE[name]}`);
  const message = ((): LifxMessage => {
    switch (name) {
      case 'StateService':
        return { type: name, service: view.getUint8(p), port: view.getUint32(p + 1, true) };
      case 'SetPower':
      case 'StatePower':
      case 'LightStatePower':
        return { type: name, level: view.getUint16(p, true) };
      case 'LightSetPower':
        return { type: name, level: view.getUint16(p, true), durationMs: view.getUint32(p + 2, true) };
      case 'StateLabel':
        return { type: name, label: decodeLabel(payload) };
      case 'StateVersion':
        return { type: name, vendor: view.getUint32(p, true), product: view.getUint32(p + 4, true) };
      case 'EchoRequest':
      case 'EchoResponse':
        return { type: name, payload };
      case 'LightSetColor':
        return { type: name, color: readHsbk(view, p + 1), durationMs: view.getUint32(p + 9, true) };
      case 'LightSetWaveform':
        return { type: name, ...readWaveform(view, p) };
      case 'LightSetWaveformOptional':
        return {
          type: name,
          ...readWaveform(view, p),
          setHue: view.getUint8(p + 21) !== 0,
          setSaturation: view.getUint8(p + 22) !== 0,
          setBrightness: view.getUint8(p + 23) !== 0,
          setKelvin: view.getUint8(p + 24) !== 0,
        };
      case 'LightState':
        return {
          type: name,
          color: readHsbk(view, p),
          power: view.getUint16(p + 10, true),
          label: decodeLabel(payload.subarray(12, 12 + LIFX_LABEL_SIZE)),
        };
      case 'StateUnhandled':
        return { type: name, unhandledType: view.getUint16(p, true) };
      default:
        return { type: name };
    }
  })();
  return { header, message };
}

/** Skew as a 0–1 ratio (PULSE shows the colour for 1 − ratio of a period) → wire i16. */
export function skewRatioToWire(ratio: number): number {
  return Math.round(Math.min(1, Math.max(0, ratio)) * 65535) - 32768;
}

export function skewRatioFromWire(wire: number): number {
  return (wire + 32768) / 65535;
}

/** Kelvin of white when the app's colour has no temperature of its own (§1.4). */
export const LIFX_DEFAULT_KELVIN = 3500;

const clamp01 = (v: number): number => Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));

/**
 * The app's colour (hue in degrees, saturation and brightness 0–1) → HSBK: hue × 65535 / 360
 * rounded (red 0, yellow 10923, blue 43690), saturation and brightness × 65535.
 */
export function colorToHsbk(
  color: { hue: number; saturation: number; brightness: number },
  kelvin: number = LIFX_DEFAULT_KELVIN,
): Hsbk {
  const hue = Number.isFinite(color.hue) ? ((color.hue % 360) + 360) % 360 : 0;
  return {
    hue: Math.round((hue * 65535) / 360) % 65536,
    saturation: Math.round(clamp01(color.saturation) * 65535),
    brightness: Math.round(clamp01(color.brightness) * 65535),
    kelvin: Math.round(kelvin),
  };
}

/** HSBK → the app's colour (hue in degrees 0–360, saturation and brightness 0–1) and kelvin. */
export function hsbkToColor(hsbk: Hsbk): {
  hue: number;
  saturation: number;
  brightness: number;
  kelvin: number;
} {
  return {
    hue: (hsbk.hue * 360) / 65535,
    saturation: hsbk.saturation / 65535,
    brightness: hsbk.brightness / 65535,
    kelvin: hsbk.kelvin,
  };
}
