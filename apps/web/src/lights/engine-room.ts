import type { LookSet } from '@flaglight/core';
import {
  toLightErrorInfo,
  type EffectPlayer,
  type GoveeCloudDriver,
  type HueDriver,
  type LifxCloudDriver,
} from '@flaglight/lights';
import { createCloudRoom, type CloudRoom, type DrivenLights, type UnreadableLight } from './cloud-room';
import type { LightsEngineOptions } from './lights-engine-options';
import type { ProviderStores } from './provider-states';
import { createProviderStore, isProviderConnected, type ProviderStore } from './provider-store';
import { createRoomJoins, type RoomJoins } from './room-joins';
import { OFF_LOOK, roomLightsOf, showOnLights, type RoomLook } from './room-lights';
import { SessionRoom } from './session-room';

// "As it was" as the lights engine wires it: the cloud room (what the driven lights showed before a
// session, kept in the browser's storage when the options give one), the session's rules around it,
// and a snapshot an earlier page kept given back once its session is over.

export type RoomNotes = { unreadable: UnreadableLight[]; left: UnreadableLight[] };

/** A green dimmed after it held fades down over this long. */
const AFTER_GREEN_FADE_MS = 2_000;

export interface EngineRoomDeps {
  options: LightsEngineOptions;
  drivers: { lifx: LifxCloudDriver; hue: HueDriver; govee: GoveeCloudDriver };
  screen: EffectPlayer;
  providers: ProviderStores;
  /** True while the connections are being restored after the page loaded. */
  restoring: ProviderStore<{ restoring: boolean }>;
  looks(): LookSet | undefined;
  /** The lights a flag changes now (those held out while they are read included). */
  driven(): DrivenLights;
  /** Drops what the room's lights still have queued. */
  stopPlaying(): void;
  /** Whether the followed session drives the lights now. */
  sessionFollowed(): boolean;
  toastError(message: string): void;
}

export interface EngineRoom {
  room: CloudRoom;
  session: SessionRoom;
  /** Lights that cannot be read, and lights the last give-back left (Light Control says so beside each). */
  notes: ProviderStore<RoomNotes>;
  /** Lights that joined mid-session, held out of the flags while they are read. */
  joins: RoomJoins;
  dispose(): void;
}

export function createEngineRoom(deps: EngineRoomDeps): EngineRoom {
  const { options, drivers } = deps;
  const warn = (message: string) => options.notify.warning(message);
  /** One look (null: off) on these lights; a failure is said like any light's. */
  const show = (lights: DrivenLights, look: RoomLook | null, transitionMs: number) => {
    showOnLights(drivers, lights, look, transitionMs).catch((error: unknown) =>
      deps.toastError(toLightErrorInfo(error).message),
    );
  };
  const notes = createProviderStore<RoomNotes>({ unreadable: [], left: [] });
  const room: CloudRoom = createCloudRoom({
    lights: roomLightsOf(drivers.lifx),
    driven: () => deps.driven(),
    stopPlaying: () => deps.stopPlaying(),
    turnOff: (lights) => show(lights, null, 0),
    screenOff: () => deps.screen.showLook(OFF_LOOK, 0),
    onChange: () => notes.set({ unreadable: room.unreadable(), left: room.lastLeft() }),
    warn,
    store: options.roomStore,
  });
  const joins = createRoomJoins({
    driven: () => deps.driven(),
    read: (joined) => session.join(joined, deps.restoring.getSnapshot().restoring),
  });
  /** The driven lights a flag may change now. */
  const free = (): DrivenLights => {
    const driven = deps.driven();
    return {
      lifx: joins.free('lifx', driven.lifx),
      hue: joins.free('hue', driven.hue),
      govee: joins.free('govee', driven.govee),
    };
  };
  const session: SessionRoom = new SessionRoom({
    room,
    follow: () => options.follow?.(),
    looks: () => deps.looks(),
    dim: (look) => {
      // A session the fan stopped following meanwhile changes no light.
      if (!deps.sessionFollowed()) return;
      deps.screen.showLook(look, AFTER_GREEN_FADE_MS);
      show(free(), look, AFTER_GREEN_FADE_MS);
    },
    warn,
  });
  // A snapshot an earlier page kept: given back once its session is over and its lights connected
  // (each provider's: LIFX's give-back goes from this tab, with its token).
  session.watchKept({
    over: (key) => options.sessionOver?.(key) ?? Promise.resolve(true),
    ready: (providers) =>
      !deps.restoring.getSnapshot().restoring &&
      providers.every((provider) => isProviderConnected(deps.providers[provider].getSnapshot())),
    subscribe: (listener) => {
      const off = [
        deps.restoring.subscribe(listener),
        ...Object.values(deps.providers).map((store) => store.subscribe(listener)),
      ];
      return () => off.forEach((fn) => fn());
    },
  });
  const offJoins = Object.values(deps.providers).map((store) => store.subscribe(() => joins.update()));
  return {
    room,
    session,
    notes,
    joins,
    dispose: () => {
      offJoins.forEach((off) => off());
      joins.dispose();
    },
  };
}
