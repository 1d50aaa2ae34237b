import type { SessionEndAction } from '@flaglight/core';
import type { RestoreReport, SavedStates } from '@flaglight/lights';
import { ROOM_PROVIDERS, type RoomProvider, type RoomStore } from './room-store';

// "As it was" for the lights this browser drives (LIFX's cloud itself, Hue and Govee through the
// app's server): each driven light's own power, colour and brightness, read once per session before
// the first change, given back when green has held (if the fan chose that; kept for the end) and at
// the session's end ('as-it-was'), or the lights turned off ('off'), or left ('leave'). Kept in the
// browser's storage too (`store`): a page loaded again mid-session takes its session's snapshot up
// and reads nothing again (the lights show a flag by then), and gives back one whose session is over.

// The providers are named beside their storage (room-store.ts reads them back from localStorage).
export { ROOM_PROVIDERS, type RoomProvider } from './room-store';

/** How one provider's lights are read and given back. */
export interface RoomLights {
  read(ids: readonly string[]): Promise<SavedStates>;
  restore(saved: SavedStates): Promise<RestoreReport>;
}

/** Lights by provider. */
export type DrivenLights = Record<RoomProvider, readonly string[]>;

/** A light that cannot be read, with why ("as it was" leaves it as it is). */
export interface UnreadableLight {
  provider: RoomProvider;
  id: string;
  reason: string;
}

export interface CloudRoomDeps {
  lights: Record<RoomProvider, RoomLights>;
  /** The lights a flag changes now (the driven provider's selection, and Govee's beside it). */
  driven(): DrivenLights;
  /** Drops what the players still have queued: a pending step would undo the give-back. */
  stopPlaying(): void;
  /** Turns these lights off (the session ended and the fan chose 'off'). */
  turnOff(lights: DrivenLights): void;
  /** The on-screen light back as it was before the session: off (it shows nothing until a flag). */
  screenOff(): void;
  /** The unreadable lights or the last give-back changed (Light Control says so beside each light). */
  onChange(): void;
  warn(message: string): void;
  /** Where the snapshot is kept beyond this page (none: this page's memory only). */
  store?: RoomStore;
}

interface Snapshot {
  key: string;
  lights: Map<string, { provider: RoomProvider; id: string; saved: SavedStates[string] }>;
}

const keyOf = (provider: RoomProvider, id: string) => `${provider}:${id}`;
/** A test's snapshot (no session followed): the screen plays the test itself and is left to it. */
export const TEST_SNAPSHOT_KEY = 'test';
/** A provider that did not answer the read at all: its lights are left as they are. */
export const NOT_READ = 'Could not be read before the first flag: left as it is';
/** A light added mid-session whose read did not answer in time (it takes the flags as it is). */
export const JOINED_NOT_READ = 'Could not be read when it was added during the session: left as it is';
/** A light added mid-session is read within this long; a later answer is not kept. */
export const JOIN_READ_WITHIN_MS = 3_500;
/** A read of lights added mid-session that failed is tried again this often. */
const JOIN_READ_RETRY_MS = 500;

export interface CloudRoom {
  /** Reads every driven light not read yet for this session (a new key drops another session's snapshot). */
  take(key: string): Promise<void>;
  /**
   * Lights added to the driven ones mid-session, read into `key`'s snapshot before a flag reaches
   * them (within JOIN_READ_WITHIN_MS, else kept as unreadable). Null when there is nothing to read:
   * no snapshot of `key`, or every light read already.
   */
  join(key: string, lights: DrivenLights): Promise<void> | null;
  /** Gives every read light back as it was; the snapshot is kept (green held, 'give-back'). */
  giveBack(key: string): Promise<void>;
  /** The session ended: the fan's choice carried out, then the snapshot dropped. */
  end(key: string, action: SessionEndAction): Promise<void>;
  /** The session whose snapshot is held (read on this page or kept by an earlier one), or null. */
  key(): string | null;
  /** The providers of the held snapshot's lights. */
  providers(): RoomProvider[];
  unreadable(): UnreadableLight[];
  /** Lights left by the last give-back, with why (not answering, a refusal). */
  lastLeft(): UnreadableLight[];
}

/** A kept snapshot as this page holds it. */
function fromKept(kept: ReturnType<RoomStore['read']>): Snapshot | null {
  if (!kept) return null;
  return {
    key: kept.key,
    lights: new Map(kept.lights.map((light) => [keyOf(light.provider, light.id), light])),
  };
}

/** `work`'s answer if it comes within `ms`, else nothing read (a later answer is not kept). */
function readWithin(work: Promise<SavedStates>, ms: number): Promise<SavedStates> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({}), Math.max(0, ms));
    work.then(
      (saved) => {
        clearTimeout(timer);
        resolve(saved);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Reads lights added mid-session until JOIN_READ_WITHIN_MS: a read that fails (the flags the others
 * play meanwhile may drop it from LIFX's queue) is tried again every JOIN_READ_RETRY_MS. What has
 * not answered by then is nothing read.
 */
async function readJoined(lights: RoomLights, ids: readonly string[]): Promise<SavedStates> {
  const until = Date.now() + JOIN_READ_WITHIN_MS;
  for (;;) {
    try {
      return await readWithin(lights.read(ids), until - Date.now());
    } catch {
      if (Date.now() + JOIN_READ_RETRY_MS >= until) return {};
      await new Promise((resolve) => setTimeout(resolve, JOIN_READ_RETRY_MS));
    }
  }
}

export function createCloudRoom(deps: CloudRoomDeps): CloudRoom {
  let snapshot: Snapshot | null = fromKept(deps.store?.read() ?? null);
  let left: UnreadableLight[] = [];
  /** A session's end still under way (its give-back): a new session's read waits for it. */
  let ending: Promise<void> | null = null;

  /** Reads `ids` not in `taking` yet (lights added mid-session `joined`: within a time, kept as that). */
  async function readProvider(
    taking: Snapshot,
    provider: RoomProvider,
    ids: readonly string[],
    joined = false,
  ) {
    const unread = ids.filter((id) => !taking.lights.has(keyOf(provider, id)));
    if (unread.length === 0) return;
    let saved: SavedStates = {};
    try {
      saved = await (joined ? readJoined(deps.lights[provider], unread) : deps.lights[provider].read(unread));
    } catch (error) {
      deps.warn(
        `Your lights as they were could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const reason = joined ? JOINED_NOT_READ : NOT_READ;
    for (const id of unread) {
      const state = saved[id] ?? { readable: false as const, reason };
      taking.lights.set(keyOf(provider, id), { provider, id, saved: state });
    }
  }

  async function restore(taken: Snapshot): Promise<void> {
    deps.stopPlaying();
    if (taken.key !== TEST_SNAPSHOT_KEY) deps.screenOff();
    const report: UnreadableLight[] = [];
    await Promise.all(
      ROOM_PROVIDERS.map(async (provider) => {
        const saved: SavedStates = {};
        for (const light of taken.lights.values())
          if (light.provider === provider) saved[light.id] = light.saved;
        if (Object.keys(saved).length === 0) return;
        try {
          const done = await deps.lights[provider].restore(saved);
          for (const { id, reason } of done.left) report.push({ provider, id, reason });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          for (const id of Object.keys(saved)) report.push({ provider, id, reason });
        }
      }),
    );
    left = report;
    deps.onChange();
  }

  return {
    async take(key) {
      // A session's end still giving the room back: the next session reads the room once it is back.
      if (ending) await ending;
      if (snapshot && snapshot.key !== key) snapshot = null;
      snapshot ??= { key, lights: new Map() };
      const taking = snapshot;
      const driven = deps.driven();
      await Promise.all(ROOM_PROVIDERS.map((provider) => readProvider(taking, provider, driven[provider])));
      // Ended or replaced while the lights were read: not this session's to keep any more.
      if (snapshot === taking) deps.store?.write({ key, lights: [...taking.lights.values()] });
      deps.onChange();
    },
    join(key, lights) {
      const open = snapshot;
      if (!open || open.key !== key) return null;
      const unread = (provider: RoomProvider) =>
        lights[provider].filter((id) => !open.lights.has(keyOf(provider, id)));
      if (ROOM_PROVIDERS.every((provider) => unread(provider).length === 0)) return null;
      const read: Snapshot = { key, lights: new Map() };
      return (async () => {
        await Promise.all(ROOM_PROVIDERS.map((p) => readProvider(read, p, unread(p), true)));
        // Ended or replaced while they were read: not this session's to keep any more.
        if (snapshot !== open) return;
        for (const [at, light] of read.lights) if (!open.lights.has(at)) open.lights.set(at, light);
        deps.store?.write({ key, lights: [...open.lights.values()] });
        deps.onChange();
      })();
    },
    async giveBack(key) {
      if (snapshot?.key === key) await restore(snapshot);
    },
    end(key, action) {
      const taken = snapshot;
      if (!taken || taken.key !== key) return ending ?? Promise.resolve();
      snapshot = null;
      const done = (async () => {
        try {
          if (action === 'as-it-was') await restore(taken);
          else if (action === 'off') {
            deps.stopPlaying();
            const off: Record<RoomProvider, string[]> = { lifx: [], hue: [], govee: [] };
            for (const light of taken.lights.values()) off[light.provider].push(light.id);
            deps.turnOff(off);
            deps.screenOff();
          }
        } finally {
          // Carried out: a page loaded later has nothing of this session to give back. (The next
          // session's snapshot is written after this: its read waits for `ending`.)
          if (!snapshot) deps.store?.remove();
        }
        deps.onChange();
      })();
      ending = done;
      void done
        .finally(() => {
          if (ending === done) ending = null;
        })
        .catch(() => undefined);
      return done;
    },
    key: () => snapshot?.key ?? null,
    providers: () => [...new Set([...(snapshot?.lights.values() ?? [])].map((light) => light.provider))],
    unreadable: () =>
      [...(snapshot?.lights.values() ?? [])].flatMap(({ provider, id, saved }) =>
        saved.readable ? [] : [{ provider, id, reason: saved.reason }],
      ),
    lastLeft: () => left,
  };
}
