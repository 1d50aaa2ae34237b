import type { LightDeviceInfo, LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';
import { solidLookOf } from '../skeleton/device-looks.js';
import { createLanDriver, type LanAdapter, type LanKit, type Strobe } from '../skeleton/lan-driver.js';
import { asLightError, requireStrobePeriod } from '../skeleton/lan-errors.js';
import { createHomeAssistantCalls } from './calls.js';
import {
  HOME_ASSISTANT_PACE_MS,
  type HomeAssistantDriver,
  type HomeAssistantDriverOptions,
} from './driver-types.js';
import { isHomeAssistantToken } from './http.js';
import { createHomeAssistantLink, type HomeAssistantLink } from './link.js';
import {
  describeModes,
  HA_FEATURE_FLASH,
  homeAssistantCall,
  homeAssistantFlashCall,
  type HomeAssistantCall,
  type HomeAssistantLight,
} from './looks.js';
import { readHomeAssistantLights } from './read-lights.js';
import { createHomeAssistantRoomState } from './room.js';

export * from './driver-types.js';

/**
 * Home Assistant's lights (provider `home_assistant`) over its REST API, one light per `light.*`
 * entity. A look is one `light.turn_on`/`turn_off` call per entity. A strobe is one call with
 * `flash: short` on an entity whose `supported_features` lists flash, and looks at 400 ms halves
 * on the others. Each entity has one call in flight at most, the next one 400 ms after the answer to
 * the one before, and only its newest look waits behind it. A time-out or refused connection marks Home Assistant unreachable:
 * it is asked again after 2 s (doubling to 30 s) and every entity gets its last look when it
 * answers; an entity that turns `unavailable` gets its last look when it comes back. A 401 (or 403)
 * stops the driver: a new token is needed. A 400 or 5xx for one entity is reported with its name.
 *
 * The adapter on the LAN skeleton (`../skeleton/`): its devices are the entities, its queue the
 * skeleton's per-device one; whether calls may go is Home Assistant's as a whole (`link.ts`).
 */
export function createHomeAssistantDriver(options: HomeAssistantDriverOptions): HomeAssistantDriver {
  const paceMs = options.paceMs ?? HOME_ASSISTANT_PACE_MS;
  if (!isHomeAssistantToken(options.token))
    throw new LightError('bad-request', 'A Home Assistant access token is printable text without spaces');
  const { driver, adapter } = createLanDriver({
    provider: 'home_assistant',
    lightsWord: 'Home Assistant lights',
    closedMessage: 'This Home Assistant driver is closed',
    timers: options.timers ?? systemTimers,
    log: options.onLog ?? (() => undefined),
    nativeStrobe: true,
    minStrobeHalfPeriodMs: () => paceMs,
    paceMs,
    // HA answers a call once the device took it: pacing from that answer spaces the calls as the
    // device sees them, however long one took to reach Home Assistant.
    paceFrom: 'answer',
    adapter: (kit) => createHomeAssistantAdapter(kit, options, paceMs),
  });
  return {
    ...driver,
    ...adapter.room,
    provider: 'home_assistant',
    connect: adapter.connect,
    discover: adapter.connect,
    connection: adapter.link.state,
    problem: adapter.link.problem,
    lights: () => [...adapter.devices()],
    entityErrors: adapter.entityErrors,
  };
}

type HomeAssistantAdapter = LanAdapter<HomeAssistantLight, HomeAssistantCall> &
  Pick<HomeAssistantDriver, 'connect' | 'entityErrors'> & { link: HomeAssistantLink; room: RoomStateDriver };

function createHomeAssistantAdapter(
  kit: LanKit<HomeAssistantCall>,
  options: HomeAssistantDriverOptions,
  paceMs: number,
): HomeAssistantAdapter {
  let lights = new Map<string, HomeAssistantLight>();
  const reread = () => void connect().catch(() => undefined);
  const link = createHomeAssistantLink({ kit, driver: options, reread });
  const calls = createHomeAssistantCalls({ kit, link, paceMs, lightOf: (id) => lights.get(id) });
  /** Each entity's look now (a paced strobe's flash included): sent again when it answers again. */
  const shown = new Map<string, LightStateCommand>();
  let connecting: Promise<LightDeviceInfo[]> | null = null;
  let read = false;

  const list = () => [...lights.values()].map(toInfo);
  const toInfo = (light: HomeAssistantLight): LightDeviceInfo => ({
    id: light.entityId,
    label: light.name,
    name: light.name,
    type: describeModes(light),
    group: null,
    location: light.area ? { name: light.area } : null,
    connected: link.state() === 'connected' && light.available,
  });

  function connect(): Promise<LightDeviceInfo[]> {
    kit.ensureUsable();
    connecting ??= (async () => {
      try {
        const found = await readHomeAssistantLights(link.request);
        if ('refused' in found) link.refused(found.refused);
        else if (!link.ended()) {
          took(found.lights);
          link.armRefresh();
        }
      } catch (error) {
        // Down, slow, starting up (5xx) or the wrong address (404): asked again with back-off.
        link.unreachable(asLightError(error));
      } finally {
        connecting = null;
      }
      return list();
    })();
    return connecting;
  }

  /** A new list of lights: the ones that came back (or Home Assistant itself) get their last look. */
  function took(next: HomeAssistantLight[]): void {
    const before = lights;
    lights = new Map(next.map((l) => [l.entityId, l]));
    const wasUp = link.answered();
    if (!wasUp && read) kit.log('Home Assistant answers again');
    for (const light of lights.values()) {
      const old = before.get(light.entityId);
      if (old && old.available && !light.available) {
        const message = `Home Assistant: ${light.name} is unavailable (its device is not answering Home Assistant)`;
        kit.log(message);
        kit.events.emit({ type: 'warning', message });
      }
      const back = (!wasUp && read) || (old !== undefined && !old.available);
      const look = shown.get(light.entityId);
      if (back && light.available && look) void submit(light, look);
    }
    read = true;
  }

  /** The entity's newest look, as one call (the same look with `flash` for a strobe's start). */
  function submit(light: HomeAssistantLight, look: LightStateCommand, flash = false) {
    const call = flash ? homeAssistantFlashCall(light, look) : homeAssistantCall(light, look);
    return kit.queue.submit(light.entityId, [call]);
  }

  /** Shows `look` on one entity now, or keeps it for when Home Assistant or the entity answers. */
  function showOn(light: HomeAssistantLight, look: LightStateCommand, flash = false): Promise<unknown> {
    shown.set(light.entityId, look);
    if (link.state() !== 'connected' || !light.available) return Promise.resolve();
    return submit(light, look, flash);
  }

  /**
   * One strobe on one entity: `flash: short` in the call of its colour where the entity flashes by
   * itself (one request, the device's own blink), else its halves as looks at the entity's pace.
   */
  function strobe(light: HomeAssistantLight, step: Strobe): Promise<unknown> {
    const solid = solidLookOf(step);
    kit.looks.begin(light.entityId, solid);
    if (light.features & HA_FEATURE_FLASH) return showOn(light, solid, true);
    const first = kit.looks.pacedStrobe(light.entityId, step, paceMs, (look) => {
      const now = lights.get(light.entityId);
      if (now) void showOn(now, look);
    });
    return showOn(light, first);
  }

  return {
    link,
    room: createHomeAssistantRoomState({
      kit,
      link,
      lights: () => lights,
      forget: (id) => shown.delete(id),
    }),
    connect,
    entityErrors: () => calls.entityErrors((id) => lights.has(id)),
    find: async () => void (await connect()),
    async beforeList() {
      if (!read && link.usable()) await connect();
    },
    devices: () => [...lights.values()],
    idOf: (light) => light.entityId,
    toInfo,
    show(light, look) {
      // A newer look ends the entity's running strobe first.
      kit.looks.begin(light.entityId, look);
      return showOn(light, look);
    },
    strobe,
    send: calls.send,
    reachable: () => link.usable(),
    requireStrobe: requireStrobePeriod,
    beforeLook: () => (!read && link.state() === 'connecting' ? connect().then(() => undefined) : undefined),
    // An entity gone from the list may still have flashes to come.
    onCancel: () => kit.looks.stopAll(),
    async close() {
      link.close();
      await connecting?.catch(() => undefined);
    },
  };
}
