// The room's snapshot on disk, beside the state file: written to a temporary file that is renamed
// over the old one (as the state file is), so a crash mid-write leaves the last whole snapshot.
import fs from 'node:fs';
import path from 'node:path';
import type { SavedLightState } from '@flaglight/lights/lan';

export const ROOM_SNAPSHOT_FILE = 'room-snapshot.json';

/** Each followed light's own state, read before the session's first change, by `provider:id`. */
export interface RoomSnapshot {
  sessionKey: number;
  takenAt: string;
  lights: Record<string, SavedLightState>;
}

const isSaved = (value: unknown): value is SavedLightState => {
  const entry = value as { readable?: unknown; on?: unknown; state?: unknown; reason?: unknown } | null;
  if (typeof entry !== 'object' || entry === null) return false;
  if (entry.readable === false) return typeof entry.reason === 'string';
  return entry.readable === true && typeof entry.on === 'boolean' && typeof entry.state === 'object';
};

/** The snapshot kept in `dir`, or null (none, or not one this companion wrote: set aside as `.bad`). */
export function readRoomSnapshot(dir: string): RoomSnapshot | null {
  const file = path.join(dir, ROOM_SNAPSHOT_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<RoomSnapshot>;
    const lights = parsed.lights ?? {};
    if (
      typeof parsed.sessionKey === 'number' &&
      typeof parsed.takenAt === 'string' &&
      typeof lights === 'object' &&
      Object.values(lights).every(isSaved)
    )
      return { sessionKey: parsed.sessionKey, takenAt: parsed.takenAt, lights };
  } catch {
    // set aside below
  }
  fs.renameSync(file, `${file}.bad`);
  return null;
}

export function writeRoomSnapshot(dir: string, snapshot: RoomSnapshot): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, ROOM_SNAPSHOT_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(snapshot), { mode: 0o600 });
  fs.renameSync(temp, file);
}

export function removeRoomSnapshot(dir: string): void {
  fs.rmSync(path.join(dir, ROOM_SNAPSHOT_FILE), { force: true });
}
