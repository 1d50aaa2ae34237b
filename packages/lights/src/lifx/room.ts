import type { RestoreReport, SavedLightState, SavedStates } from '../lan/room-state.js';
import type { LifxRequest } from './requests.js';

// "As it was" on LIFX's cloud (reference §2): one `GET /lights/all` reads every bulb's power, colour
// (hue, saturation, kelvin) and brightness; giving them back is one `PUT /lights/states` with a
// state per bulb (at most 50 a request), so a room of any size costs a request or two.

/** LIFX takes at most 50 operations in one `PUT /lights/states`. */
const LIFX_STATES_PER_REQUEST = 50;

/** Why a bulb that LIFX lists as offline is left as it is. */
export const LIFX_OFFLINE_REASON = 'LIFX says this light is offline: it could not be read';

interface ListedBulb {
  id?: unknown;
  connected?: unknown;
  power?: unknown;
  brightness?: unknown;
  color?: { hue?: unknown; saturation?: unknown; kelvin?: unknown } | null;
}

const num = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** One listed bulb's saved state: power, hue, saturation, kelvin and brightness as LIFX gave them. */
export function savedLifxBulb(bulb: ListedBulb): SavedLightState {
  if (bulb.connected === false) return { readable: false, reason: LIFX_OFFLINE_REASON };
  const on = bulb.power === 'on';
  return {
    readable: true,
    on,
    state: {
      power: on ? 'on' : 'off',
      hue: num(bulb.color?.hue, 0),
      saturation: num(bulb.color?.saturation, 0),
      kelvin: num(bulb.color?.kelvin, 3500),
      brightness: num(bulb.brightness, 1),
    },
  };
}

/** The saved states of the wanted bulbs out of a `GET /lights/all` answer (all listed for no ids). */
export function readLifxStates(listed: unknown, ids: readonly string[]): SavedStates {
  const bulbs = Array.isArray(listed) ? (listed as ListedBulb[]) : [];
  const wanted = new Set(ids);
  const saved: SavedStates = {};
  for (const bulb of bulbs) {
    if (typeof bulb?.id !== 'string' || (wanted.size > 0 && !wanted.has(bulb.id))) continue;
    saved[bulb.id] = savedLifxBulb(bulb);
  }
  return saved;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * One bulb's entry of `PUT /lights/states`: a bulb that was off only turns off; a coloured one gets
 * its hue and saturation, a white one its kelvin; its brightness, at once.
 */
export function lifxRestoreEntry(id: string, state: Record<string, unknown>): Record<string, unknown> {
  if (state.power !== 'on') return { selector: `id:${id}`, power: 'off', duration: 0 };
  const saturation = clamp(num(state.saturation, 0), 0, 1);
  const color =
    saturation > 0
      ? `hue:${clamp(num(state.hue, 0), 0, 360)} saturation:${saturation}`
      : `kelvin:${Math.round(clamp(num(state.kelvin, 3500), 1500, 9000))} saturation:0`;
  return {
    selector: `id:${id}`,
    power: 'on',
    color,
    brightness: clamp(num(state.brightness, 1), 0, 1),
    duration: 0,
  };
}

/** The requests that give the saved bulbs back, and what is left with why (unreadable ones). */
export function lifxRestoreRequests(saved: SavedStates): {
  requests: { request: LifxRequest; ids: string[] }[];
  left: RestoreReport['left'];
} {
  const entries: { id: string; entry: Record<string, unknown> }[] = [];
  const left: RestoreReport['left'] = [];
  for (const [id, state] of Object.entries(saved)) {
    if (!state.readable) left.push({ id, reason: state.reason });
    else entries.push({ id, entry: lifxRestoreEntry(id, state.state) });
  }
  const requests: { request: LifxRequest; ids: string[] }[] = [];
  for (let i = 0; i < entries.length; i += LIFX_STATES_PER_REQUEST) {
    const chunk = entries.slice(i, i + LIFX_STATES_PER_REQUEST);
    const ids = chunk.map((c) => c.id);
    requests.push({
      ids,
      request: {
        kind: 'state',
        method: 'PUT',
        path: '/lights/states',
        body: { states: chunk.map((c) => c.entry) },
        devices: ids,
      },
    });
  }
  return { requests, left };
}
