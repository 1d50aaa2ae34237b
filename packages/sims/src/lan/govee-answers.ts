import type { GoveeDevice } from './govee-device-model.js';
import { LAN_SIM_HOST } from './lan-host.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isByte = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255;

/** A datagram's `{msg: {cmd, data}}`: `data` as sent, and as a record to read; null when it is not one. */
export function parseGoveeMessage(
  datagram: Buffer,
): { cmd: string; data: Record<string, unknown>; sent: unknown } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(datagram.toString('utf8'));
  } catch {
    return null; // not JSON: a real device ignores it too
  }
  if (!isObject(parsed) || !isObject(parsed.msg) || typeof parsed.msg.cmd !== 'string') return null;
  return {
    cmd: parsed.msg.cmd,
    data: isObject(parsed.msg.data) ? parsed.msg.data : {},
    sent: parsed.msg.data,
  };
}

/**
 * Applies one command to the device; `reply` sends an answer (scan, devStatus) to the requester.
 * False when its data is not what Govee's API takes.
 */
export function applyGoveeCommand(
  device: GoveeDevice,
  cmd: string,
  data: Record<string, unknown>,
  reply: (cmd: string, data: unknown) => void,
): boolean {
  switch (cmd) {
    case 'scan':
      if (data.account_topic !== 'reserve') return false;
      reply('scan', {
        ...(device.omitsIp ? {} : { ip: LAN_SIM_HOST }),
        device: device.id,
        sku: device.sku,
        bleVersionHard: '3.01.01',
        bleVersionSoft: '1.03.01',
        wifiVersionHard: '1.00.10',
        wifiVersionSoft: '1.02.03',
      });
      return true;
    case 'devStatus':
      reply('devStatus', {
        onOff: device.on ? 1 : 0,
        brightness: device.brightness,
        color: { ...device.color },
        colorTemInKelvin: device.kelvin,
      });
      return true;
    case 'turn':
      if (data.value !== 0 && data.value !== 1) return false;
      device.on = data.value === 1;
      return true;
    case 'brightness':
      if (
        typeof data.value !== 'number' ||
        !Number.isInteger(data.value) ||
        data.value < 1 ||
        data.value > 100
      )
        return false;
      device.brightness = data.value;
      return true;
    case 'colorwc': {
      const kelvin = data.colorTemInKelvin ?? 0;
      if (typeof kelvin !== 'number' || kelvin < 0) return false;
      // Non-zero kelvin means white at that temperature: the colour is ignored (§2.1).
      if (kelvin !== 0) {
        device.kelvin = Math.round(kelvin);
        return true;
      }
      const color = data.color;
      if (!isObject(color) || !isByte(color.r) || !isByte(color.g) || !isByte(color.b)) return false;
      device.color = { r: color.r, g: color.g, b: color.b };
      device.kelvin = 0;
      return true;
    }
    default:
      return false;
  }
}
