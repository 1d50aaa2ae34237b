import type { LightDriver } from '@flaglight/lights';
import { ROOM_PROVIDERS, type DrivenLights, type RoomProvider } from './cloud-room';

// Lights that join the driven ones mid-session (the fan ticks one, a provider connects) are read
// into the session's snapshot before Flaglight first changes them, so "as it was" gives them back
// with the others (the companion's rule, decision 050). Until their read is done (at most
// JOIN_HOLD_MS) no flag, dim or test reaches them; the other lights go on with the race.

/** The longest a light that joined is held out of the flags while it is read. */
export const JOIN_HOLD_MS = 5_000;

export interface RoomJoinsDeps {
  /** The lights a flag changes now, none held out. */
  driven(): DrivenLights;
  /** Reads lights that joined (a promise while it reads), or null when nothing is to be read. */
  read(joined: DrivenLights): Promise<void> | null;
}

export interface RoomJoins {
  /** The driven lights may have changed: those that joined are read first, when the room wants them. */
  update(): void;
  /** Of `ids`, those a flag may change now (those being read are left out). */
  free(provider: RoomProvider, ids: readonly string[]): string[];
  /** Runs `then` once none of `ids` is held out any more (at once when none is). */
  whenFree(provider: RoomProvider, ids: readonly string[], then: () => void): void;
  dispose(): void;
}

/** The driven lights as they are now (a copy: what `driven` answers may change in place). */
function copyOf(lights: DrivenLights): DrivenLights {
  return { lifx: [...lights.lifx], hue: [...lights.hue], govee: [...lights.govee] };
}

export function createRoomJoins(deps: RoomJoinsDeps): RoomJoins {
  let before = copyOf(deps.driven());
  /** Held lights, by provider: each with the join that holds it. */
  const held: Record<RoomProvider, Map<string, number>> = {
    lifx: new Map(),
    hue: new Map(),
    govee: new Map(),
  };
  let waiting: { provider: RoomProvider; ids: readonly string[]; then: () => void }[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let joins = 0;

  const isHeld = (provider: RoomProvider, ids: readonly string[]) => ids.some((id) => held[provider].has(id));
  const release = (joined: DrivenLights, by: number) => {
    for (const provider of ROOM_PROVIDERS)
      for (const id of joined[provider]) if (held[provider].get(id) === by) held[provider].delete(id);
    const due = waiting.filter((entry) => !isHeld(entry.provider, entry.ids));
    waiting = waiting.filter((entry) => !due.includes(entry));
    for (const entry of due) entry.then();
  };

  const hold = (joined: DrivenLights, reading: Promise<void>) => {
    const by = ++joins;
    for (const provider of ROOM_PROVIDERS) for (const id of joined[provider]) held[provider].set(id, by);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, JOIN_HOLD_MS);
      timers.add(timer);
    });
    void Promise.race([reading.catch(() => undefined), waited]).then(() => {
      if (timer) {
        clearTimeout(timer);
        timers.delete(timer);
      }
      release(joined, by);
    });
  };

  return {
    update() {
      const now = copyOf(deps.driven());
      const added = (provider: RoomProvider) => now[provider].filter((id) => !before[provider].includes(id));
      const joined: DrivenLights = { lifx: added('lifx'), hue: added('hue'), govee: added('govee') };
      before = now;
      if (ROOM_PROVIDERS.every((provider) => joined[provider].length === 0)) return;
      const reading = deps.read(joined);
      if (reading) hold(joined, reading);
    },
    free: (provider, ids) => ids.filter((id) => !held[provider].has(id)),
    whenFree(provider, ids, then) {
      if (isHeld(provider, ids)) waiting.push({ provider, ids, then });
      else then();
    },
    dispose() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      waiting = [];
    },
  };
}

/**
 * The driver a player sends a provider's flags through, the lights held out left out of each step
 * (a step for none of the others is not sent: the held ones take the flag once read).
 */
export function holdingOut(driver: LightDriver, free: (ids: readonly string[]) => string[]): LightDriver {
  return {
    get provider() {
      return driver.provider;
    },
    get nativeStrobe() {
      return driver.nativeStrobe;
    },
    minStrobeHalfPeriodMs: (count) => driver.minStrobeHalfPeriodMs(count),
    listDevices: () => driver.listDevices(),
    setState(ids, state) {
      const open = free(ids);
      return open.length > 0 ? driver.setState(open, state) : Promise.resolve();
    },
    playStep(ids, step) {
      const open = free(ids);
      return open.length > 0 ? driver.playStep(open, step) : Promise.resolve();
    },
    cancelPending: () => driver.cancelPending(),
    subscribe: (listener) => driver.subscribe(listener),
  };
}
