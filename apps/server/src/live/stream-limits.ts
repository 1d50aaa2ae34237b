/**
 * How many event streams are open, per account and on this instance: one
 * account may hold `perUser` streams, the instance `total`. Counted in this process only: with
 * several instances (REDIS_URL) an account may hold `perUser` on each (docs/decisions/013).
 * Nothing here runs per event: only when a stream opens or closes.
 */
export interface StreamLimits {
  /** Streams this account holds open now. */
  openFor(userId: string): number;
  /**
   * Takes a place for a new stream: `release` gives it back (once; later calls do nothing).
   * `user`: the account already holds `perUser`; `instance`: this instance holds `total`.
   */
  acquire(
    userId: string,
  ):
    | { ok: true; release: () => void }
    | { ok: false; reason: 'user'; open: number }
    | { ok: false; reason: 'instance' };
  /** Every open stream on this instance. */
  total(): number;
}

export function createStreamLimits(limits: { perUser: number; total: number }): StreamLimits {
  const perUser = new Map<string, number>();
  let total = 0;
  return {
    openFor: (userId) => perUser.get(userId) ?? 0,
    total: () => total,
    acquire(userId) {
      if (total >= limits.total) return { ok: false, reason: 'instance' };
      const open = perUser.get(userId) ?? 0;
      if (open >= limits.perUser) return { ok: false, reason: 'user', open };
      perUser.set(userId, open + 1);
      total += 1;
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          total -= 1;
          const left = (perUser.get(userId) ?? 1) - 1;
          if (left > 0) perUser.set(userId, left);
          else perUser.delete(userId);
        },
      };
    },
  };
}
