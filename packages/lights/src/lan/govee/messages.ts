import { hsbToRgb, type LightColor } from '@flaglight/core';
import { isOff, type LightStateCommand } from '../../driver.js';
import { sanitizeField } from './sanitize.js';

// Govee's LAN API as JSON datagrams (reference/nanoleaf-govee.md §2.1, colours §4).

/** The group a real scan goes to; devices with LAN Control on have joined it. */
export const GOVEE_LAN_MULTICAST_GROUP = '239.255.255.250';
/** Scan (client → group), listen (scan and status replies come to the requester's IP here), command. */
export const GOVEE_LAN_DEFAULT_PORTS = { scan: 4001, listen: 4002, command: 4003 } as const;

export interface GoveeRgb {
  r: number;
  g: number;
  b: number;
}

/** What one device is asked to show: off, or on at a brightness (1–100) in an RGB colour. */
export type GoveeLook = { on: false } | { on: true; brightness: number; color: GoveeRgb };

/** A device's answer to `devStatus`. */
export interface GoveeStatus {
  onOff: number;
  brightness: number;
  color: GoveeRgb;
  colorTemInKelvin: number;
}

/**
 * A scan reply: `device` is the stable key. `ip` is only compared with the source address, which is
 * where commands go (some models leave `ip` out). The version fields are not read.
 */
export interface GoveeScanReply {
  device: string;
  sku: string;
  ip: string | null;
}

export type GoveeIncoming =
  { cmd: 'scan'; reply: GoveeScanReply } | { cmd: 'devStatus'; status: GoveeStatus } | { cmd: 'other' };

const envelope = (cmd: string, data: unknown) => JSON.stringify({ msg: { cmd, data } });

/** The scan's data is literally `{"account_topic":"reserve"}` (§2.1). */
export const GOVEE_SCAN_MESSAGE = envelope('scan', { account_topic: 'reserve' });
export const GOVEE_STATUS_MESSAGE = envelope('devStatus', {});

/** The app's colour as Govee RGB at full value (brightness goes in its own command); white is 255,255,255. */
export function toGoveeRgb(color: Pick<LightColor, 'hue' | 'saturation'>): GoveeRgb {
  return hsbToRgb({ hue: color.hue, saturation: color.saturation, brightness: 1 });
}

/** A look in Govee's terms; black or `on: false` is off (`turn` 0: colorwc 0,0,0 is unverified, §4). */
export function toGoveeLook(state: Pick<LightStateCommand, 'on' | 'color' | 'brightness'>): GoveeLook {
  if (isOff({ ...state, transitionMs: 0 })) return { on: false };
  return {
    on: true,
    brightness: Math.min(100, Math.max(1, Math.round(state.brightness * 100))),
    color: toGoveeRgb(state.color),
  };
}

/**
 * The datagrams for one look: off is `turn` 0 alone; on is `turn` 1, `brightness`, then `colorwc`
 * with kelvin 0 (a non-zero kelvin would make the device ignore the colour and show white).
 */
export function lookCommands(look: GoveeLook): string[] {
  if (!look.on) return [envelope('turn', { value: 0 })];
  return [
    envelope('turn', { value: 1 }),
    envelope('brightness', { value: look.brightness }),
    envelope('colorwc', { color: { ...look.color }, colorTemInKelvin: 0 }),
  ];
}

/** Whether a status shows the look (brightness within 1: some models round). */
export function statusMatches(look: GoveeLook, status: GoveeStatus): boolean {
  if (!look.on) return status.onOff === 0;
  const { r, g, b } = status.color;
  return (
    status.onOff === 1 &&
    Math.abs(status.brightness - look.brightness) <= 1 &&
    status.colorTemInKelvin === 0 &&
    r === look.color.r &&
    g === look.color.g &&
    b === look.color.b
  );
}

/** `#rrggbb` as the light shows it (brightness applied; black when off). */
export function lookHex(look: GoveeLook): string {
  if (!look.on) return '#000000';
  const scale = look.brightness / 100;
  return `#${[look.color.r, look.color.g, look.color.b]
    .map((c) =>
      Math.round(c * scale)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export function describeStatus(status: GoveeStatus): string {
  if (status.onOff === 0) return 'off';
  const { r, g, b } = status.color;
  const colour = status.colorTemInKelvin > 0 ? `white ${status.colorTemInKelvin} K` : `rgb ${r},${g},${b}`;
  return `${colour} at ${status.brightness}%`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const byte = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255 ? value : null;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** One received datagram, or null when it is not a Govee message (other apps share the port). */
export function parseGoveeDatagram(text: string): GoveeIncoming | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(parsed) || !isObject(parsed.msg) || typeof parsed.msg.cmd !== 'string') return null;
  const { cmd, data } = parsed.msg;
  if (!isObject(data)) return null;
  if (cmd === 'scan') {
    // Every text is cleaned here, before it can reach a log line or a label.
    const device = typeof data.device === 'string' ? sanitizeField(data.device) : '';
    const sku = typeof data.sku === 'string' ? sanitizeField(data.sku) : '';
    // Our own scan (`account_topic`) echoed back by a loopback or a multicast group is no reply.
    if (device === '') return null;
    return {
      cmd: 'scan',
      reply: {
        device,
        sku: sku || 'Govee',
        ip: typeof data.ip === 'string' && IPV4.test(data.ip) ? data.ip : null,
      },
    };
  }
  if (cmd === 'devStatus') {
    const color = isObject(data.color) ? data.color : {};
    const [r, g, b] = [byte(color.r), byte(color.g), byte(color.b)];
    if (
      (data.onOff !== 0 && data.onOff !== 1) ||
      typeof data.brightness !== 'number' ||
      r === null ||
      g === null ||
      b === null
    )
      return null;
    return {
      cmd: 'devStatus',
      status: {
        onOff: data.onOff,
        brightness: data.brightness,
        color: { r, g, b },
        colorTemInKelvin: typeof data.colorTemInKelvin === 'number' ? data.colorTemInKelvin : 0,
      },
    };
  }
  return { cmd: 'other' };
}
