// Every light of the demo server's LAN simulator as the room sees it, for the tests of "as it was":
// each brand's own state from the simulator (`GET /sims/lan/state`), reduced to what a fan sees:
// power, colour, brightness, and the WLED preset or effect and the Nanoleaf effect running.
import { call } from './demo-server.js';

interface SimState {
  lifx: {
    bulbs: {
      id: string;
      label: string;
      on: boolean;
      color: Record<string, number>;
      waveformRunning: boolean;
    }[];
  };
  hueBridge: {
    lights: { id: string; name: string; on: boolean; brightness: number; xy: unknown }[];
  };
  govee: {
    devices: {
      id: string;
      label: string;
      on: boolean;
      brightness: number;
      color: Record<string, number>;
      kelvin: number;
    }[];
  };
  nanoleaf: {
    devices: {
      id: string;
      name: string;
      on: boolean;
      brightness: number;
      hue: number;
      sat: number;
      ct: number;
      colorMode: string;
      select: string;
      effect: unknown;
    }[];
  };
  wled: {
    devices: {
      id: string;
      name: string;
      effect: string;
      state: { on: boolean; bri: number; ps: number; seg: { on: boolean; col: number[][]; fx: number }[] };
    }[];
  };
  homeAssistant: {
    lights: {
      entityId: string;
      name: string;
      state: string;
      brightness: number;
      hs: unknown;
      kelvin: unknown;
    }[];
  };
}

/** A light's look: `brand name` → what it shows, as JSON (equal strings, equal looks). */
export type RoomLooks = Map<string, string>;

/** Every virtual light's own state now, by brand and name. */
export async function readRoomLooks(server: string): Promise<RoomLooks> {
  const sim = (await call(server, 'GET', '/sims/lan/state')) as SimState;
  const looks: RoomLooks = new Map();
  const put = (name: string, look: unknown) => looks.set(name, JSON.stringify(look));
  for (const b of sim.lifx.bulbs)
    put(`LIFX ${b.label}`, { on: b.on, color: b.color, waveform: b.waveformRunning });
  for (const l of sim.hueBridge.lights)
    put(`Hue ${l.name}`, { on: l.on, brightness: l.brightness, xy: l.xy });
  for (const d of sim.govee.devices)
    put(`Govee ${d.label}`, { on: d.on, brightness: d.brightness, color: d.color, kelvin: d.kelvin });
  for (const d of sim.nanoleaf.devices)
    put(`Nanoleaf ${d.name}`, {
      on: d.on,
      brightness: d.brightness,
      hue: d.hue,
      sat: d.sat,
      ct: d.ct,
      colorMode: d.colorMode,
      effect: d.select,
      played: d.effect,
    });
  for (const d of sim.wled.devices) {
    const seg = d.state.seg[0];
    put(`WLED ${d.name}`, {
      on: d.state.on,
      bri: d.state.bri,
      preset: d.state.ps,
      effect: d.effect,
      segment: seg && { on: seg.on, col: seg.col, fx: seg.fx },
    });
  }
  for (const l of sim.homeAssistant.lights)
    put(`Home Assistant ${l.name}`, { state: l.state, brightness: l.brightness, hs: l.hs, kelvin: l.kelvin });
  return looks;
}

const isOff = (look: string) => {
  const parsed = JSON.parse(look) as { on?: boolean; state?: string };
  return parsed.on === false || parsed.state === 'off';
};

/**
 * The lights whose look differs between two readings, each as `name: before → now`. A light that
 * was off only has to be off again: the colour it keeps for its next switch-on is not part of the
 * room a fan sees (Home Assistant does not even tell it, and writing it lights some brands up).
 */
export function lookChanges(before: RoomLooks, now: RoomLooks): string[] {
  const changes: string[] = [];
  for (const [name, look] of before) {
    const after = now.get(name);
    const same = after !== undefined && (isOff(look) ? isOff(after) : after === look);
    if (!same) changes.push(`${name}: ${look} → ${after ?? 'gone'}`);
  }
  return changes;
}

/** Whether a reading has lights of every brand the demo offers, some off and some dimmed. */
export function describeRoom(looks: RoomLooks): { brands: string[]; off: number; on: number } {
  const brands = new Set<string>();
  let off = 0;
  for (const [name, look] of looks) {
    brands.add(name.startsWith('Home Assistant') ? 'Home Assistant' : name.split(' ')[0]!);
    if (isOff(look)) off += 1;
  }
  return { brands: [...brands].sort(), off, on: looks.size - off };
}
