import { readEach, restoreEach, savedNumber, type RoomStateDriver } from '../room-state.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import type { HomeAssistantLink } from './link.js';
import type { HomeAssistantCall, HomeAssistantLight } from './looks.js';

// "As it was" on Home Assistant (reference/home-assistant-mqtt-wled.md §1): the entity's state and
// attributes (`GET /api/states/<entity_id>`). Giving it back is `light.turn_off` for an entity that
// was off, else `light.turn_on` with its brightness, its colour in the mode it was in (hs, xy, rgb or
// a colour temperature) and its effect.

type Json = Record<string, unknown>;
const COLOUR_ATTRIBUTES: Record<string, string> = {
  hs: 'hs_color',
  xy: 'xy_color',
  rgb: 'rgb_color',
  rgbw: 'rgbw_color',
  rgbww: 'rgbww_color',
  color_temp: 'color_temp_kelvin',
};

/** The saved fields of an entity's state: on, brightness, its colour mode's value, its effect. */
export function savedHomeAssistant(body: unknown): { on: boolean; state: Json } | null {
  const entity = (body ?? {}) as Json;
  if (entity.state === 'unavailable' || entity.state === 'unknown') return null;
  const attributes = (entity.attributes ?? {}) as Json;
  const on = entity.state === 'on';
  const state: Json = { on };
  if (typeof attributes.brightness === 'number') state.brightness = attributes.brightness;
  const mode = typeof attributes.color_mode === 'string' ? attributes.color_mode : null;
  const key = mode ? COLOUR_ATTRIBUTES[mode] : undefined;
  if (mode && key && attributes[key] !== undefined && attributes[key] !== null) {
    state.colorMode = mode;
    state[key] = attributes[key];
  }
  if (typeof attributes.effect === 'string' && attributes.effect !== 'none') state.effect = attributes.effect;
  return { on, state };
}

/** The service call that gives an entity back its saved state. */
export function homeAssistantRestoreCall(entityId: string, state: Json): HomeAssistantCall {
  if (state.on !== true) return { service: 'turn_off', body: { entity_id: entityId } };
  const body: Json = { entity_id: entityId };
  const brightness = savedNumber(state, 'brightness');
  if (brightness !== null) body.brightness = Math.min(255, Math.max(1, Math.round(brightness)));
  const mode = typeof state.colorMode === 'string' ? state.colorMode : null;
  const key = mode ? COLOUR_ATTRIBUTES[mode] : undefined;
  if (key && state[key] !== undefined) body[key] = state[key];
  if (typeof state.effect === 'string') body.effect = state.effect;
  return { service: 'turn_on', body };
}

export function createHomeAssistantRoomState(options: {
  kit: LanKit<HomeAssistantCall>;
  link: HomeAssistantLink;
  lights: () => ReadonlyMap<string, HomeAssistantLight>;
  /** The entity's look is over: not sent again when it or Home Assistant answers again. */
  forget: (entityId: string) => void;
}): RoomStateDriver {
  const { kit, link } = options;
  return {
    readStates: (ids) =>
      readEach(ids.length > 0 ? ids : [...options.lights().keys()], async (id) => {
        const light = options.lights().get(id);
        if (!light) return null;
        if (!link.usable() || !light.available) throw new Error('not answering');
        const answer = await link.request({ method: 'GET', path: `/api/states/${encodeURIComponent(id)}` });
        if (answer.status !== 200) throw new Error(`Home Assistant answered HTTP ${answer.status}`);
        const saved = savedHomeAssistant(answer.body);
        if (!saved) throw new Error('not answering');
        return { readable: true, ...saved };
      }),
    restoreStates: (saved) =>
      restoreEach(saved, async (id, state) => {
        const light = options.lights().get(id);
        if (!light) throw new Error('This Home Assistant light is not listed any more');
        if (!link.usable() || !light.available)
          throw new Error(`Home Assistant: ${light.name} is not answering`);
        kit.looks.release(id);
        options.forget(id);
        await kit.queue.submit(id, [homeAssistantRestoreCall(id, state)]);
      }),
  };
}
