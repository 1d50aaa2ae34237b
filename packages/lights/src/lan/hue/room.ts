import type { HueLightCommand } from '../../hue/transports.js';
import { readEach, restoreEach, savedNumber, type RoomStateDriver, type SavedStates } from '../room-state.js';
import type { HueLocalTransport } from './transport.js';

// "As it was" on a Hue bridge (reference/lan-lights.md §2): one `GET /clip/v2/resource/light` reads
// every light's on, dimming and colour (xy, or a colour temperature when `mirek_valid`); giving it
// back is one PUT per light through the bridge's paced queue.

type Resource = Record<string, unknown>;
const field = (value: unknown, key: string): Resource | null => {
  const inner = (value as Resource | null)?.[key];
  return typeof inner === 'object' && inner !== null ? (inner as Resource) : null;
};

/** The saved fields of one CLIP v2 light: on, brightness, and xy or mirek. */
export function savedHueLight(resource: Resource): { on: boolean; state: Resource } {
  const on = field(resource, 'on')?.on === true;
  const brightness = field(resource, 'dimming')?.brightness;
  const temperature = field(resource, 'color_temperature');
  const xy = field(field(resource, 'color'), 'xy');
  const state: Resource = { on };
  if (typeof brightness === 'number') state.brightness = brightness;
  if (temperature?.mirek_valid === true && typeof temperature.mirek === 'number')
    state.mirek = temperature.mirek;
  else if (xy && typeof xy.x === 'number' && typeof xy.y === 'number') state.xy = { x: xy.x, y: xy.y };
  return { on, state };
}

/** The PUT that gives a light back its saved state (a light that was off only turns off). */
export function hueRestoreCommand(state: Resource): HueLightCommand {
  if (state.on !== true) return { on: { on: false }, dynamics: { duration: 0 } };
  const command: HueLightCommand = { on: { on: true }, dynamics: { duration: 0 } };
  const brightness = savedNumber(state, 'brightness');
  if (brightness !== null) command.dimming = { brightness: Math.min(100, Math.max(0, brightness)) };
  const mirek = savedNumber(state, 'mirek');
  const xy = state.xy as { x?: unknown; y?: unknown } | undefined;
  if (mirek !== null) command.color_temperature = { mirek: Math.round(mirek) };
  else if (typeof xy?.x === 'number' && typeof xy.y === 'number')
    command.color = { xy: { x: xy.x, y: xy.y } };
  return command;
}

export function createHueRoomState(options: {
  transport: HueLocalTransport;
  /** Sends one light's command through the bridge's paced queue; `signalling` ends a running signal too. */
  send: (id: string, command: HueLightCommand) => Promise<void>;
}): RoomStateDriver {
  const { transport } = options;
  return {
    async readStates(ids) {
      const resources = await transport.readLightResources();
      const byId = new Map(resources.map((r) => [String(r.id), r]));
      const wanted = ids.length > 0 ? ids : [...byId.keys()];
      return readEach(wanted, (id) => {
        const resource = byId.get(id);
        return Promise.resolve(resource ? { readable: true, ...savedHueLight(resource) } : null);
      });
    },
    restoreStates: (saved: SavedStates) =>
      restoreEach(saved, async (id, state) => {
        if (!transport.lights().some((l) => l.id === id))
          throw new Error('This Hue light is not on the bridge');
        await options.send(id, hueRestoreCommand(state));
      }),
  };
}
