import { createTestProgram, type LookSet } from '@flaglight/core';
import { hasRoomState, type SavedStates } from '@flaglight/lights';

/** After a test's restore step, how long before its lights are given back (as the browser does). */
export const TEST_GIVE_BACK_DELAY_MS = 500;

/** One driver of the hub, as far as giving its lights back after a test needs it. */
export interface TestGiveBackEntry {
  key: string;
  driver: object;
  /** The lights the flags drive now. */
  driven: readonly string[];
}

/**
 * A test flag with no race followed: the lights it changes are read first and given back "as they
 * were" once the test ends, instead of staying on the test's look (with a race followed, the test
 * goes back to the race's flag by itself). A second test meanwhile keeps the first reading; a race
 * flag meanwhile takes the lights and the reading is dropped. A driver that cannot read its lights
 * leaves them on the test's look.
 */
export function createTestGiveBack(deps: {
  /** True while a race flag is showing or due: then the race, not the room, follows the test. */
  raceOn: () => boolean;
  warn: (key: string, message: string) => void;
}) {
  let saved: Map<string, SavedStates> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const drop = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    saved = null;
  };

  async function read(entries: readonly TestGiveBackEntry[]): Promise<Map<string, SavedStates>> {
    const reads = entries.map(async (entry) => {
      if (!hasRoomState(entry.driver) || entry.driven.length === 0) return null;
      const states = await entry.driver.readStates(entry.driven).catch((error: unknown) => {
        deps.warn(entry.key, `could not read its lights before the test: ${String(error)}`);
        return {};
      });
      return [entry.key, states] as const;
    });
    return new Map((await Promise.all(reads)).filter((pair) => pair !== null));
  }

  function giveBack(entries: readonly TestGiveBackEntry[]): void {
    const states = saved;
    drop();
    if (!states || deps.raceOn()) return;
    for (const entry of entries) {
      const mine = states.get(entry.key);
      if (!mine || !hasRoomState(entry.driver) || Object.keys(mine).length === 0) continue;
      entry.driver
        .restoreStates(mine)
        .catch((error: unknown) => deps.warn(entry.key, `could not give its lights back: ${String(error)}`));
    }
  }

  return {
    /**
     * Reads the lights (unless a test before this one already did), then plays the test; after the
     * test's restore step (its look held), gives them back. Resolves once the test started.
     */
    async playTest(
      flag: string,
      looks: LookSet | undefined,
      entries: () => readonly TestGiveBackEntry[],
      play: () => void,
    ): Promise<void> {
      if (deps.raceOn()) {
        drop();
        play();
        return;
      }
      saved ??= await read(entries());
      play();
      const test = createTestProgram(flag, looks);
      const restoreAt = test.ok ? (test.program.steps.find((s) => s.kind === 'restore')?.atMs ?? null) : null;
      if (restoreAt === null) return; // A flag the looks leave alone changed nothing.
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => giveBack(entries()), restoreAt + TEST_GIVE_BACK_DELAY_MS);
      timer.unref();
    },
    /** A race flag took the lights (or the hub is closing, unlinked or paused): nothing to give back. */
    drop,
  };
}
