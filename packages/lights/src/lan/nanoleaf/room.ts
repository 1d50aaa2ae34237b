import { readEach, restoreEach, savedNumber, type RoomStateDriver } from '../room-state.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import { CONTROLLER_KEY, type NanoleafController } from './controller.js';
import { nanoleafRequest } from './http.js';
import type { NanoleafWrite } from './writes.js';

// "As it was" on a Nanoleaf controller (reference/nanoleaf-govee.md §1): `GET /state` (on,
// brightness, hue, sat, ct, colorMode) and `GET /effects/select` (the effect it plays). Giving it
// back selects that effect again (a saved one; the controller's own `*Solid*`, `*Static*` and
// `*Dynamic*` are not names it can select) or writes the colour, then the brightness and power.

type Json = Record<string, unknown>;
const valueOf = (body: unknown, key: string): unknown => ((body as Json | null)?.[key] as Json | null)?.value;
const isOwnEffect = (name: string) => /^\*.*\*$/.test(name);

/** The saved fields of `/state` and the selected effect. */
export function savedNanoleaf(state: unknown, select: unknown): { on: boolean; state: Json } {
  const on = valueOf(state, 'on') === true;
  const saved: Json = { on, colorMode: (state as Json | null)?.colorMode ?? 'hs' };
  for (const key of ['brightness', 'hue', 'sat', 'ct']) {
    const value = valueOf(state, key);
    if (typeof value === 'number') saved[key] = value;
  }
  if (typeof select === 'string') saved.effect = select;
  return { on, state: saved };
}

/** The writes that give the controller back its saved state, in order. */
export function nanoleafRestoreWrites(state: Json): NanoleafWrite[] {
  const writes: NanoleafWrite[] = [];
  const effect = typeof state.effect === 'string' ? state.effect : null;
  const brightness = savedNumber(state, 'brightness');
  const hue = savedNumber(state, 'hue');
  const sat = savedNumber(state, 'sat');
  const ct = savedNumber(state, 'ct');
  // The colour first (also under an effect: what a colour pick starts from), then the effect.
  if (state.colorMode === 'ct' && ct !== null) writes.push({ path: '/state', body: { ct: { value: ct } } });
  else if (hue !== null && sat !== null)
    writes.push({ path: '/state', body: { hue: { value: hue }, sat: { value: sat } } });
  if (state.colorMode === 'effect' && effect && !isOwnEffect(effect))
    writes.push({ path: '/effects', body: { select: effect } });
  writes.push({
    path: '/state',
    body: {
      ...(brightness !== null ? { brightness: { value: brightness } } : {}),
      on: { value: state.on === true },
    },
  });
  return writes;
}

export function createNanoleafRoomState(options: {
  kit: LanKit<NanoleafWrite>;
  controller: NanoleafController;
  timeoutMs?: number | undefined;
  /** What the controller shows is not known any more (the next strobe writes its brightness). */
  forgetShown: () => void;
}): RoomStateDriver {
  const { kit, controller } = options;
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const get = async (path: string) => {
    const answer = await nanoleafRequest(`${controller.apiUrl()}${path}`, {
      method: 'GET',
      agent: controller.agent,
      ...timeout,
    });
    if (answer.status !== 200)
      throw new Error(`Nanoleaf "${controller.name()}" answered ${path} with HTTP ${answer.status}`);
    return answer.body;
  };
  const isOurs = (id: string) => id === controller.id() || id === CONTROLLER_KEY;

  return {
    readStates: (ids) =>
      readEach(ids.length > 0 ? ids : [controller.id()], async (id) => {
        if (!isOurs(id)) return null;
        if (!controller.reachable() || !controller.active()) throw new Error('not answering');
        const [state, select] = [await get('/state'), await get('/effects/select')];
        return { readable: true, ...savedNanoleaf(state, select) };
      }),
    restoreStates: (saved) =>
      restoreEach(saved, async (id, state) => {
        if (!isOurs(id)) throw new Error('This Nanoleaf controller is another one');
        if (!controller.reachable() || !controller.active())
          throw new Error(`Nanoleaf "${controller.name()}" is not answering`);
        kit.looks.release(CONTROLLER_KEY);
        options.forgetShown();
        await kit.queue.submit(CONTROLLER_KEY, nanoleafRestoreWrites(state));
      }),
  };
}
