// The race's flags as the hub was given them: the one the lights show and those waiting for their
// time (a light that joins mid-race takes them; a test goes back to the race's flag or the room).
import { isMomentary } from '@flaglight/core';

/** A flag waiting for its time; `plays`, asked once it is due, says whether it played. */
interface QueuedFlag {
  flag: string;
  at: number;
  plays: () => boolean;
}

/** `stillPlays` asked once, at the flag's time: every driver's player and the timeline get the same answer. */
export function askOnce(stillPlays?: () => boolean): () => boolean {
  let answer: boolean | null = null;
  return () => (answer ??= stillPlays ? stillPlays() : true);
}

/**
 * The race's flags as the hub was given them: the one the lights show and those waiting for their
 * time. `leaves` tells a flag the look set leaves alone: the lights keep the flag before it.
 */
export function createFlagTimeline(leaves: (flag: string) => boolean) {
  let lasting: string | null = null;
  let queued: QueuedFlag[] = [];
  const lasts = (flag: string) => !isMomentary(flag) && !leaves(flag);
  const settle = () => {
    const now = Date.now();
    // A fastest lap passes: the flag before it is what the lights settle on.
    for (const due of queued.filter((q) => q.at <= now))
      if (lasts(due.flag) && due.plays()) lasting = due.flag;
    queued = queued.filter((q) => q.at > now);
  };
  return {
    played(flag: string) {
      settle();
      if (lasts(flag)) lasting = flag;
    },
    queue(flag: string, at: number, plays: () => boolean) {
      queued.push({ flag, at, plays });
    },
    dropQueued() {
      queued = [];
    },
    clear() {
      lasting = null;
      queued = [];
    },
    now() {
      settle();
      return { lasting, queued: [...queued] };
    },
    /** A race flag shows, or waits for its time. */
    racing() {
      settle();
      return lasting !== null || queued.length > 0;
    },
  };
}
