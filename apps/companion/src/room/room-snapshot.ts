// "As it was": each followed light's own state, read once per session before Flaglight first
// changes it, kept on disk (a restart or a crash mid-session still gives the room back), and put
// back when the session ends ('as-it-was'), or the lights turned off ('off'), or left ('leave').
// It hangs on the session hooks of `follow/session-lights.ts`, and on the chequered flag of a race,
// sprint or practice: the server keeps such a session live a while after it, the fan wants the
// room back once the flag has been seen.
import { CHECKERED_SOLID_AFTER_MS, type FollowedSessionKind, type SessionEndAction } from '@flaglight/core';
import { hasRoomState, type SavedStates } from '@flaglight/lights/lan';
import type { LightsHub } from '../lights/lights-hub.js';
import type { Logger } from '../system/log.js';
import { readRoomSnapshot, removeRoomSnapshot, writeRoomSnapshot, type RoomSnapshot } from './room-file.js';
import {
  CANNOT_BE_READ,
  JOINED_NOT_ANSWERING,
  keyOf,
  notInSnapshot,
  NOT_ANSWERING,
  readLights,
  type LightsToRead,
} from './room-reads.js';

/** After the chequered flag of a race, sprint or practice reached the lights: its flash, then the room back. */
export const SESSION_END_AFTER_CHEQUERED_MS = CHECKERED_SOLID_AFTER_MS;
/** A snapshot left by a run that stopped is given back once its session is over: tried this often… */
const ORPHAN_CHECK_MS = 1_000;
/** …for this long (its lights may take a while to be found again). */
const ORPHAN_GIVE_UP_MS = 120_000;
/** Kinds whose chequered flag ends the session (a qualifying's ends only a part of it). */
const ENDS_AT_CHEQUERED: ReadonlySet<FollowedSessionKind | null> = new Set([
  'race',
  'sprint',
  'practice',
  null,
]);

export interface RoomView {
  sessionKey: number | null;
  /** Lights whose state could not be read, with why ("as it was" leaves them as they are). */
  unreadable: { provider: string; id: string; reason: string }[];
  /** What the last give-back did: lights given back, lights left with why. */
  last: { at: string; restored: number; left: { light: string; reason: string }[] } | null;
}

export interface RoomSnapshots {
  /** `beforeFirstChange`: reads the driven lights (a snapshot kept for this session is kept). */
  take(sessionKey: number): Promise<void>;
  /** `sessionEnded`: the fan's choice carried out, then the snapshot dropped. */
  sessionEnded(sessionKey: number, action: SessionEndAction): Promise<void>;
  /** `giveBack` (green held): the room as it was, the snapshot kept for the session's end. */
  giveBack(sessionKey: number): Promise<void>;
  /** A race flag reached the lights: the chequered flag of a race, sprint or practice ends the session. */
  flagPlayed(state: string, sessionKey: number, kind: FollowedSessionKind | null): void;
  /**
   * Lights that join the driven ones mid-session (ticked, a device added): read into the snapshot
   * before the session's flag first reaches them (the hub waits for the promise). Null when there is
   * nothing to read: no session read in this run, or lights read already.
   */
  readJoining(joined: readonly LightsToRead[]): Promise<void> | null;
  view(): RoomView;
  close(): void;
}

/** At the session's end, lights not found again yet are waited for this long (after a restart). */
const ROOM_FIND_WAIT_MS = 10_000;

export function createRoomSnapshots(deps: {
  dir: string;
  hub: Pick<LightsHub, 'drivers' | 'showLook' | 'endRace' | 'paused'>;
  log: Logger;
  sessionEnd: () => SessionEndAction;
  /** The session the follower is on now and whether any is live (a snapshot left by a stopped run). */
  following: () => { sessionKey: number | null; live: boolean | null };
  /** The session's end is being carried out: its later flags must reach no light. */
  sessionOver?: (sessionKey: number) => void;
}): RoomSnapshots {
  const { dir, hub, log } = deps;
  let snapshot: RoomSnapshot | null = readRoomSnapshot(dir);
  /** The snapshot this run read (one kept by a run that stopped is not: its lights may show flags). */
  let readHere: RoomSnapshot | null = null;
  let last: RoomView['last'] = null;
  let endTimer: NodeJS.Timeout | null = null;
  let endingNow: { snapshot: RoomSnapshot; done: Promise<void> } | null = null;
  let orphanTimer: NodeJS.Timeout | null = null;

  const save = () => {
    try {
      if (snapshot) writeRoomSnapshot(dir, snapshot);
      else removeRoomSnapshot(dir);
    } catch (error) {
      log.warn(
        `Room: the snapshot could not be kept on disk (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  };

  async function take(sessionKey: number): Promise<void> {
    if (snapshot && snapshot.sessionKey !== sessionKey) {
      // A session that ended while this companion was away: its room first.
      await end(snapshot.sessionKey, deps.sessionEnd());
    }
    if (snapshot) {
      // Kept by a run that stopped mid-session: its lights may show the session's flags by now, so
      // none is read again (a light it could not read stays left as it is).
      log.info(`Room: the lights read before session ${sessionKey}'s first flag are still kept`);
      return;
    }
    const taking: RoomSnapshot = { sessionKey, takenAt: new Date().toISOString(), lights: {} };
    snapshot = taking;
    readHere = taking;
    await readLights(() => hub.drivers(), taking.lights, NOT_ANSWERING);
    if (snapshot !== taking) return;
    save();
    log.info(describeRead(taking.lights, "before the session's first flag"));
  }

  function end(sessionKey: number, action: SessionEndAction): Promise<void> {
    const ending = snapshot;
    if (!ending || ending.sessionKey !== sessionKey) return Promise.resolve();
    // The chequered flag's timer, the follower and a new session's first flag may all say the
    // session ended: it ends once, and each waits for that.
    if (endingNow?.snapshot === ending) return endingNow.done;
    if (endTimer) clearTimeout(endTimer);
    endTimer = null;
    // From now on the session's flags (race control's "pit exit open" after the chequered flag)
    // would light the room again.
    deps.sessionOver?.(sessionKey);
    const done = (async () => {
      // After "as it was" and "off" a later test goes back to the room as it is then, not to the
      // race's last flag; after "leave" the last flag stays the lights' look.
      if (action === 'as-it-was') {
        hub.endRace();
        await lightsFound(hub, ending.lights);
        last = await giveBack(hub, ending.lights, log).catch((error: unknown) => {
          log.warn(
            `Room: the lights could not be given back (${error instanceof Error ? error.message : String(error)})`,
          );
          return last;
        });
      } else if (action === 'off') {
        log.info('Room: the session ended, the lights go off');
        hub.endRace();
        hub.showLook({ color: { name: 'off', hue: 0, saturation: 0, off: true }, brightness: 0 }, 0);
      }
      if (snapshot === ending) {
        snapshot = null;
        save();
      }
    })();
    endingNow = { snapshot: ending, done };
    return done;
  }

  /** A snapshot a stopped run left: given back once its session is no longer the live one. */
  function watchOrphan(): void {
    const left = snapshot;
    if (!left) return;
    const until = Date.now() + ORPHAN_GIVE_UP_MS;
    const check = () => {
      orphanTimer = null;
      if (snapshot !== left || Date.now() > until) return;
      const now = deps.following();
      if (now.live === true && now.sessionKey === left.sessionKey) return; // still on: the hooks take it
      const over = now.live === false || (now.sessionKey !== null && now.sessionKey !== left.sessionKey);
      const found = hub
        .drivers()
        .some((d) => Object.keys(left.lights).some((k) => k.startsWith(`${d.provider}:`)));
      if (over && found) {
        log.info(`Room: session ${left.sessionKey} ended while the companion was away`);
        void end(left.sessionKey, deps.sessionEnd());
        return;
      }
      orphanTimer = setTimeout(check, ORPHAN_CHECK_MS);
      orphanTimer.unref();
    };
    check();
  }
  watchOrphan();

  return {
    take,
    sessionEnded: end,
    async giveBack(sessionKey) {
      if (snapshot?.sessionKey === sessionKey) last = await giveBack(hub, snapshot.lights, log);
    },
    flagPlayed(state, sessionKey, kind) {
      if (state !== 'checkered' || !snapshot || snapshot.sessionKey !== sessionKey) return;
      if (!ENDS_AT_CHEQUERED.has(kind)) return;
      if (endTimer) clearTimeout(endTimer);
      endTimer = setTimeout(() => void end(sessionKey, deps.sessionEnd()), SESSION_END_AFTER_CHEQUERED_MS);
      endTimer.unref();
    },
    readJoining(joined) {
      const open = snapshot;
      if (!open || open !== readHere || endingNow?.snapshot === open) return null;
      const unread = notInSnapshot(joined, open.lights);
      if (unread.length === 0) return null;
      return (async () => {
        const read: RoomSnapshot['lights'] = {};
        await readLights(() => unread, read, JOINED_NOT_ANSWERING);
        if (snapshot !== open) return;
        for (const [key, saved] of Object.entries(read)) open.lights[key] ??= saved;
        save();
        log.info(describeRead(read, 'added during the session, before its flag reached them'));
      })();
    },
    view: () => ({ sessionKey: snapshot?.sessionKey ?? null, unreadable: unreadable(hub, snapshot), last }),
    close() {
      if (endTimer) clearTimeout(endTimer);
      if (orphanTimer) clearTimeout(orphanTimer);
    },
  };
}

/** "Room: 5 lights read before the session's first flag; 1 left as they are when it ends (cannot be read)". */
function describeRead(lights: RoomSnapshot['lights'], when: string): string {
  const unread = Object.values(lights).filter((saved) => !saved.readable).length;
  return (
    `Room: ${Object.keys(lights).length - unread} lights read ${when}` +
    (unread > 0 ? `; ${unread} left as they are when it ends (cannot be read)` : '')
  );
}

/**
 * The lights "as it was" leaves as they are: those of a brand that cannot be read (known before any
 * session), and those the session's snapshot could not read.
 */
function unreadable(hub: Pick<LightsHub, 'drivers'>, snapshot: RoomSnapshot | null): RoomView['unreadable'] {
  const found = new Map<string, RoomView['unreadable'][number]>();
  for (const { provider, driver, driven } of hub.drivers())
    if (!hasRoomState(driver))
      for (const id of driven) found.set(keyOf(provider, id), { provider, id, reason: CANNOT_BE_READ });
  for (const [key, saved] of Object.entries(snapshot?.lights ?? {})) {
    if (saved.readable) continue;
    const at = key.indexOf(':');
    found.set(key, { provider: key.slice(0, at), id: key.slice(at + 1), reason: saved.reason });
  }
  return [...found.values()];
}

/**
 * Waits until every light of the snapshot is driven again, at most ROOM_FIND_WAIT_MS: a run started
 * after a crash finds its lights one brand after another, and a light not found yet is left.
 */
async function lightsFound(
  hub: Pick<LightsHub, 'drivers' | 'paused'>,
  lights: RoomSnapshot['lights'],
): Promise<void> {
  const wanted = Object.entries(lights).flatMap(([key, saved]) => (saved.readable ? [key] : []));
  const until = Date.now() + ROOM_FIND_WAIT_MS;
  while (!hub.paused() && Date.now() < until) {
    const driven = new Set(hub.drivers().flatMap((d) => d.driven.map((id) => keyOf(d.provider, id))));
    if (wanted.every((key) => driven.has(key))) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Puts each saved light back through the driver that drives it now (a brand may have several: one
 * per Hue bridge, one per Nanoleaf controller); what was given back and what was left, with why.
 */
async function giveBack(
  hub: Pick<LightsHub, 'drivers' | 'paused'>,
  lights: RoomSnapshot['lights'],
  log: Logger,
): Promise<NonNullable<RoomView['last']>> {
  const report = { restored: 0, left: [] as { light: string; reason: string }[] };
  if (hub.paused()) {
    for (const light of Object.keys(lights)) report.left.push({ light, reason: 'The lights are paused' });
  } else {
    const given = new Set<string>();
    await Promise.all(
      hub.drivers().map(async ({ provider, driver, driven }) => {
        const saved: SavedStates = {};
        for (const id of driven) {
          const state = lights[keyOf(provider, id)];
          if (!state) continue;
          saved[id] = state;
          given.add(keyOf(provider, id));
        }
        if (Object.keys(saved).length === 0) return;
        if (!hasRoomState(driver)) {
          for (const id of Object.keys(saved))
            report.left.push({ light: keyOf(provider, id), reason: CANNOT_BE_READ });
          return;
        }
        driver.cancelPending();
        const done = await driver.restoreStates(saved);
        report.restored += done.restored.length;
        for (const left of done.left)
          report.left.push({ light: keyOf(provider, left.id), reason: left.reason });
      }),
    );
    for (const [light, state] of Object.entries(lights))
      if (!given.has(light))
        report.left.push({ light, reason: state.readable ? 'Not found or not answering now' : state.reason });
  }
  log.info(
    `Room: ${report.restored} lights given back as they were` +
      (report.left.length > 0
        ? `; left as they are: ${report.left.map((l) => `${l.light} (${l.reason})`).join(', ')}`
        : ''),
  );
  return { at: new Date().toISOString(), ...report };
}
