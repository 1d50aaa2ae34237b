import { readEach, restoreEach, savedNumber, type RoomStateDriver } from '../room-state.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import type { Light } from './device.js';
import { wledBaseUrl, wledRequest } from './http.js';
import type { WledWrite } from './writes.js';

// "As it was" on WLED (reference/home-assistant-mqtt-wled.md §3): `GET /json/state` (on, bri, the
// preset running `ps`, and each segment's colours, effect, speed, intensity and palette). Giving it
// back loads that preset again when one ran (then its on and brightness), else writes the segments
// as they were.

type Json = Record<string, unknown>;
const SEGMENT_KEYS = ['id', 'col', 'fx', 'sx', 'ix', 'pal', 'on', 'bri'] as const;

/** The saved fields of a `/json/state` answer. */
export function savedWled(body: unknown): { on: boolean; state: Json } {
  const state = (body ?? {}) as Json;
  const on = state.on === true;
  const saved: Json = { on };
  if (typeof state.bri === 'number') saved.bri = state.bri;
  if (typeof state.ps === 'number') saved.ps = state.ps;
  if (typeof state.transition === 'number') saved.transition = state.transition;
  if (Array.isArray(state.seg))
    saved.seg = state.seg
      .filter((s): s is Json => typeof s === 'object' && s !== null)
      .map((s) => Object.fromEntries(SEGMENT_KEYS.filter((k) => s[k] !== undefined).map((k) => [k, s[k]])));
  return { on, state: saved };
}

/** The writes that give a device back its saved state (a preset that ran, or its segments). */
export function wledRestoreWrites(state: Json): WledWrite[] {
  const ps = savedNumber(state, 'ps');
  const bri = savedNumber(state, 'bri');
  const transition = savedNumber(state, 'transition');
  const power = {
    on: state.on === true,
    ...(bri !== null ? { bri } : {}),
    ...(transition !== null ? { transition } : {}),
  };
  if (ps !== null && ps > 0)
    return [
      { body: { ps }, retry: false },
      { body: power, retry: false },
    ];
  const seg = Array.isArray(state.seg) ? state.seg : [];
  return [{ body: { ...power, ...(seg.length > 0 ? { seg } : {}) }, retry: false }];
}

export function createWledRoomState(options: {
  kit: LanKit<WledWrite>;
  lights: () => readonly Light[];
  timeoutMs?: number | undefined;
}): RoomStateDriver {
  const { kit } = options;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const lightOf = (id: string) => options.lights().find((l) => l.id === id);

  return {
    readStates: (ids) =>
      readEach(ids.length > 0 ? ids : options.lights().map((l) => l.id), async (id) => {
        const light = lightOf(id);
        if (!light) return null;
        const slot = light.slot;
        if (!slot) throw new Error('not answering');
        const answer = await wledRequest(`${wledBaseUrl(slot.address)}/json/state`, {
          method: 'GET',
          agent: slot.agent,
          ...timeout,
        });
        if (answer.status !== 200)
          throw new Error(`WLED "${light.info.name}" answered HTTP ${answer.status}`);
        return { readable: true, ...savedWled(answer.body) };
      }),
    restoreStates: (saved) =>
      restoreEach(saved, async (id, state) => {
        const light = lightOf(id);
        if (!light) throw new Error('This WLED device was not found');
        if (!light.slot) throw new Error(`WLED "${light.info.name}" is not answering`);
        kit.looks.release(id);
        light.firstLook = null;
        await kit.queue.submit(id, wledRestoreWrites(state));
      }),
  };
}
