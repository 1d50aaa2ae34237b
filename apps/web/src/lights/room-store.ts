import type { SavedLightState } from '@flaglight/lights';

// "As it was" kept in this browser's localStorage, one snapshot per account (`room_snapshot_<email>`,
// beside the account's `settings_<email>`): written once the lights are read before a session's first
// flag, removed once the session's end has been carried out. A page loaded again mid-session (a
// reload, a tab the browser discarded) takes it up instead of reading lights that show a flag.

/** The browser's providers whose lights are read and given back (cloud-room.ts). */
export type RoomProvider = 'lifx' | 'hue' | 'govee';
export const ROOM_PROVIDERS: readonly RoomProvider[] = ['lifx', 'hue', 'govee'];

export const ROOM_SNAPSHOT_KEY_PREFIX = 'room_snapshot_';
/** The shape written; another one (a later version's, a foreign value) is ignored. */
const VERSION = 1;

export function roomSnapshotKey(email: string): string {
  return `${ROOM_SNAPSHOT_KEY_PREFIX}${email}`;
}

/** One light as it was, with its provider: the brand's own saved state, kept as it was read. */
export interface KeptLight {
  provider: RoomProvider;
  id: string;
  saved: SavedLightState;
}

/** A session's snapshot: its key (decision 050's session, the browser's `replay:…`, `live:…`, `test`). */
export interface KeptRoom {
  key: string;
  lights: KeptLight[];
}

export interface RoomStore {
  read(): KeptRoom | null;
  write(room: KeptRoom): void;
  remove(): void;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isSaved(value: unknown): value is SavedLightState {
  if (!isRecord(value)) return false;
  if (value.readable === false) return typeof value.reason === 'string';
  return value.readable === true && typeof value.on === 'boolean' && isRecord(value.state);
}

function isKeptLight(value: unknown): value is KeptLight {
  return (
    isRecord(value) &&
    ROOM_PROVIDERS.includes(value.provider as RoomProvider) &&
    typeof value.id === 'string' &&
    value.id !== '' &&
    isSaved(value.saved)
  );
}

/** The snapshot a stored text holds, or null (none, not JSON, or not a shape this version wrote). */
export function parseKeptRoom(text: string | null): KeptRoom | null {
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || parsed.v !== VERSION) return null;
  const { key, lights } = parsed;
  if (typeof key !== 'string' || key === '' || !Array.isArray(lights) || !lights.every(isKeptLight))
    return null;
  return { key, lights };
}

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The account's kept snapshot. Blocked or full storage keeps nothing (the snapshot then lasts for
 * this page only, as before), and never throws.
 */
export function createRoomStore(email: string, storage: () => Storage | null = browserStorage): RoomStore {
  const key = roomSnapshotKey(email);
  return {
    read() {
      try {
        return parseKeptRoom(storage()?.getItem(key) ?? null);
      } catch {
        return null;
      }
    },
    write(room) {
      try {
        storage()?.setItem(key, JSON.stringify({ v: VERSION, key: room.key, lights: room.lights }));
      } catch {
        // Blocked or full: the snapshot lasts for this page only.
      }
    },
    remove() {
      try {
        storage()?.removeItem(key);
      } catch {
        // nothing kept
      }
    },
  };
}
