import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addressGroupOf, findReplaySlot, type ReplayCaps, type RunningReplay } from './replay-slots.js';

const CAPS: ReplayCaps = { perAccount: 2, perAddress: 3, total: 4 };

/** Running replays, oldest first: `[userId, address]` each, keys from 1. */
function running(...owners: Array<[string, string] | null>): RunningReplay[] {
  return owners.map((o, i) => ({ sessionKey: i + 1, owner: o ? { userId: o[0], address: o[1] } : null }));
}

describe('findReplaySlot', () => {
  test('an account at its cap ends its oldest, wherever it started it', () => {
    const now = running(['fan', 'home'], ['other', 'home'], ['fan', 'phone']);
    expect(findReplaySlot(now, { userId: 'fan', address: 'pub' }, CAPS)).toEqual({ ok: true, end: [1] });
  });

  test("a full address makes room from the caller's own replays there, never from a neighbour's", () => {
    const full = running(['a', 'home'], ['fan', 'home'], ['b', 'home']);
    expect(findReplaySlot(full, { userId: 'fan', address: 'home' }, CAPS)).toEqual({ ok: true, end: [2] });
    expect(findReplaySlot(full, { userId: 'c', address: 'home' }, CAPS)).toEqual({
      ok: false,
      reason: 'address',
    });
    expect(findReplaySlot(full, { userId: 'c', address: 'elsewhere' }, CAPS)).toEqual({ ok: true, end: [] });
  });

  test("a full instance makes room from the caller's own replays only", () => {
    const full = running(['a', 'x'], ['b', 'y'], ['fan', 'z'], null);
    expect(findReplaySlot(full, { userId: 'fan', address: 'w' }, CAPS)).toEqual({ ok: true, end: [3] });
    expect(findReplaySlot(full, { userId: 'c', address: 'w' }, CAPS)).toEqual({
      ok: false,
      reason: 'instance',
    });
    expect(findReplaySlot(full, null, CAPS)).toEqual({ ok: false, reason: 'instance' });
  });

  test('a refused start ends nothing; an accepted one leaves every cap with room for it', () => {
    const owner = fc.record({
      userId: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      address: fc.constantFrom('x', 'y'),
    });
    fc.assert(
      fc.property(
        fc.array(fc.option(owner, { nil: null }), { maxLength: CAPS.total }),
        owner,
        (owners, caller) => {
          const now = owners.map((o, i) => ({ sessionKey: i + 1, owner: o }));
          // What any run of starts can leave behind: every cap held.
          const fits = (rs: RunningReplay[], cap: number, same: (r: RunningReplay) => boolean) =>
            rs.filter(same).length <= cap;
          for (const r of now) {
            if (!r.owner) continue;
            const { userId, address } = r.owner;
            fc.pre(fits(now, CAPS.perAccount, (o) => o.owner?.userId === userId));
            fc.pre(fits(now, CAPS.perAddress, (o) => o.owner?.address === address));
          }
          const slot = findReplaySlot(now, caller, CAPS);
          if (!slot.ok) return;
          for (const key of slot.end)
            expect(now.find((r) => r.sessionKey === key)?.owner?.userId).toBe(caller.userId);
          const after = [
            ...now.filter((r) => !slot.end.includes(r.sessionKey)),
            { sessionKey: 0, owner: caller },
          ];
          expect(fits(after, CAPS.perAccount, (r) => r.owner?.userId === caller.userId)).toBe(true);
          expect(fits(after, CAPS.perAddress, (r) => r.owner?.address === caller.address)).toBe(true);
          expect(after.length).toBeLessThanOrEqual(CAPS.total);
          // The caller's oldest go first: the newest ones stay.
          const own = now.filter((r) => r.owner?.userId === caller.userId).map((r) => r.sessionKey);
          expect(slot.end).toEqual(own.slice(0, slot.end.length));
        },
      ),
    );
  });
});

describe('addressGroupOf', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
  ])('%s counts as %s', (ip, group) => {
    expect(addressGroupOf(ip)).toBe(group);
  });
});
