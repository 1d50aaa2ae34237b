// Reading lights into the room's snapshot: every driven light before a session's first flag, and a
// light that joins the driven ones mid-session before the session's flag first reaches it.
import { hasRoomState, type SavedStates } from '@flaglight/lights/lan';
import type { RoomSnapshot } from './room-file.js';

/** Lights of one driver to read: its brand, the driver, and the ids. */
export interface LightsToRead {
  provider: string;
  driver: object;
  driven: readonly string[];
}

export const keyOf = (provider: string, id: string) => `${provider}:${id}`;
/** Why a light of a brand that cannot be read is left as it is. */
export const CANNOT_BE_READ = 'This light cannot be read';
/** Why a light that did not answer the read before the session's first flag is left as it is. */
export const NOT_ANSWERING = "This light did not answer before the session's first flag";
/** Why a light added mid-session that did not answer the read before it took the flag is left as it is. */
export const JOINED_NOT_ANSWERING = 'This light did not answer when it was added during the session';
/** Lights that do not answer the read are tried again this often… */
const ROOM_READ_RETRY_MS = 500;
/** …until this long after the first try (under the first flag's BEFORE_FIRST_CHANGE_WAIT_MS). */
export const ROOM_READ_WITHIN_MS = 3_500;

/** `work`'s answer if it comes before `until` (epoch ms), else nothing: a later answer is not kept. */
function readInTime(work: Promise<SavedStates>, until: number): Promise<SavedStates> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({}), Math.max(0, until - Date.now()));
    timer.unref();
    work.then(
      (states) => {
        clearTimeout(timer);
        resolve(states);
      },
      () => {
        clearTimeout(timer);
        resolve({});
      },
    );
  });
}

/**
 * Reads every light of `targets` into `lights`, trying those that do not answer again until
 * ROOM_READ_WITHIN_MS (a flag waits for this); one still unread then is kept as one that cannot be
 * read (`unanswered` says why), so it is never read later, once the session's flags changed it.
 */
export async function readLights(
  targets: () => readonly LightsToRead[],
  lights: RoomSnapshot['lights'],
  unanswered: string,
): Promise<void> {
  const until = Date.now() + ROOM_READ_WITHIN_MS;
  for (;;) {
    let missing = 0;
    await Promise.all(
      targets().map(async ({ provider, driver, driven }) => {
        const unread = driven.filter((id) => !(keyOf(provider, id) in lights));
        if (unread.length === 0) return;
        if (!hasRoomState(driver)) {
          for (const id of unread) lights[keyOf(provider, id)] = { readable: false, reason: CANNOT_BE_READ };
          return;
        }
        const read = await readInTime(driver.readStates(unread), until);
        for (const id of unread) if (read[id]) lights[keyOf(provider, id)] = read[id];
        missing += unread.filter((id) => !read[id]).length;
      }),
    );
    if (missing === 0) return;
    if (Date.now() + ROOM_READ_RETRY_MS > until) break;
    await new Promise((resolve) => setTimeout(resolve, ROOM_READ_RETRY_MS));
  }
  for (const { provider, driven } of targets())
    for (const id of driven)
      if (!(keyOf(provider, id) in lights))
        lights[keyOf(provider, id)] = { readable: false, reason: unanswered };
}

/** Of the lights that joined, those the snapshot holds nothing of yet. */
export function notInSnapshot(
  joined: readonly LightsToRead[],
  lights: RoomSnapshot['lights'],
): LightsToRead[] {
  return joined.flatMap((entry) => {
    const driven = entry.driven.filter((id) => !(keyOf(entry.provider, id) in lights));
    return driven.length > 0 ? [{ ...entry, driven }] : [];
  });
}
