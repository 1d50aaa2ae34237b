import { isIP } from 'node:net';

/** Who started a replay: the account, and the address (group) it was started from. */
export interface ReplayOwner {
  userId: string;
  /** `addressGroupOf` the client address: households behind one address count together. */
  address: string;
}

/** A running replay, as the slots count it; the hub lists them oldest first. */
export interface RunningReplay {
  sessionKey: number;
  owner: ReplayOwner | null;
}

export interface ReplayCaps {
  perAccount: number;
  perAddress: number;
  total: number;
}

/**
 * Where a new replay fits: `end` lists the caller's own replays to end first (oldest first); a
 * refusal names the cap that others hold (`address`: other accounts on the caller's address;
 * `instance`: every replay this instance runs).
 */
export type ReplaySlot = { ok: true; end: number[] } | { ok: false; reason: 'address' | 'instance' };

/**
 * Finds room for a replay the owner starts. The account's own replays never stand in its way: its
 * oldest are ended, as many as each cap needs (per account, per address, per instance); only when
 * ending all of them would not be enough is the start refused, and then nothing is ended.
 */
export function findReplaySlot(
  running: readonly RunningReplay[],
  owner: ReplayOwner | null,
  caps: ReplayCaps,
): ReplaySlot {
  const own = owner ? running.filter((r) => r.owner?.userId === owner.userId) : [];
  const end = new Set<RunningReplay>();
  /** Ends the account's oldest that `counted` counts until one more fits in `cap`; false if it cannot. */
  const makeRoom = (counted: (r: RunningReplay) => boolean, cap: number): boolean => {
    let excess = running.filter((r) => counted(r) && !end.has(r)).length - (cap - 1);
    for (const replay of own) {
      if (excess <= 0) break;
      if (end.has(replay) || !counted(replay)) continue;
      end.add(replay);
      excess -= 1;
    }
    return excess <= 0;
  };
  if (owner) {
    makeRoom((r) => r.owner?.userId === owner.userId, caps.perAccount);
    if (!makeRoom((r) => r.owner?.address === owner.address, caps.perAddress))
      return { ok: false, reason: 'address' };
  }
  if (!makeRoom(() => true, caps.total)) return { ok: false, reason: 'instance' };
  return { ok: true, end: [...end].map((r) => r.sessionKey) };
}

/**
 * The address a replay counts against: an IPv4 address as it is (also when mapped into IPv6), an
 * IPv6 address by its /64, the block one household or phone gets (its own 2^64 addresses would
 * otherwise be 2^64 caps).
 */
export function addressGroupOf(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string | undefined) =>
    part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
  const before = groupsOf(head);
  const after = groupsOf(tail);
  const groups = [
    ...before,
    ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0'),
    ...after,
  ];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
