import { LIFX_POWER_ON } from '@flaglight/core';
import {
  readEach,
  restoreEach,
  savedNumber,
  type RoomStateDriver,
  type SavedLightState,
} from '../room-state.js';
import { normaliseLifxId, type LanBulb } from './bulb.js';
import { toHex } from './messages.js';
import type { LifxSender } from './sender.js';

// "As it was" on LIFX LAN (reference/lan-lights.md §1.4): LightGet's LightState (HSBK and power) is
// the saved state; giving it back is SetColor with that HSBK, then SetPower to its level, so a bulb
// that was off is off again and lights up later in its own colour.

const UINT16 = 65_535;

/** The saved HSBK and power of a LightState, or null when a field is missing or out of range. */
function savedHsbk(state: Record<string, unknown>) {
  const value = (key: string) => {
    const v = savedNumber(state, key);
    return v !== null && v >= 0 && v <= UINT16 ? Math.round(v) : null;
  };
  const [hue, saturation, brightness, kelvin, power] = [
    value('hue'),
    value('saturation'),
    value('brightness'),
    value('kelvin'),
    value('power'),
  ];
  if (hue === null || saturation === null || brightness === null || kelvin === null || power === null)
    return null;
  return { color: { hue, saturation, brightness, kelvin }, power };
}

export function createLifxRoomState(options: {
  bulbs: ReadonlyMap<string, LanBulb>;
  sender: LifxSender;
}): RoomStateDriver {
  const { bulbs, sender } = options;
  const lights = () => [...bulbs.values()].filter((b) => b.isLight !== false);
  const bulbOf = (id: string) => bulbs.get(normaliseLifxId(id));

  async function readOne(id: string): Promise<SavedLightState | null> {
    const bulb = bulbOf(id);
    if (!bulb) return null;
    const reply = await sender.read(bulb);
    if (reply?.type === 'StateUnhandled')
      return { readable: false, reason: 'This LIFX device is not a light' };
    if (reply?.type !== 'LightState') throw new Error(`LIFX bulb "${id}" did not answer`);
    const { hue, saturation, brightness, kelvin } = reply.color;
    return {
      readable: true,
      on: reply.power > 0,
      state: { hue, saturation, brightness, kelvin, power: reply.power },
    };
  }

  return {
    readStates: (ids) => readEach(ids.length > 0 ? ids : lights().map((b) => b.id), readOne),
    restoreStates: (saved) =>
      restoreEach(saved, async (id, state) => {
        const bulb = bulbOf(id);
        if (!bulb) throw new Error('This LIFX bulb was not found on the network');
        if (!bulb.reachable) throw new Error(`LIFX bulb "${id}" is not answering`);
        const hsbk = savedHsbk(state);
        if (!hsbk) throw new Error('The saved LIFX state is not one a bulb gives');
        const on = hsbk.power > 0;
        // Found again later, it keeps what it shows now rather than the flag's look.
        bulb.lastLook = null;
        bulb.lastColor = on
          ? toHex(
              { hue: (hsbk.color.hue / UINT16) * 360, saturation: hsbk.color.saturation / UINT16 },
              hsbk.color.brightness / UINT16,
            )
          : '#000000';
        await sender.write(bulb, [
          { group: 'color', message: { type: 'LightSetColor', color: hsbk.color, durationMs: 0 } },
          {
            group: 'power',
            message: { type: 'LightSetPower', level: on ? LIFX_POWER_ON : 0, durationMs: 0 },
          },
        ]);
      }),
  };
}
