// What the companion knows of its link and its follower: written by the link, read by the status
// page, the F1 fallback and the state report.
import type { Follower, FollowerStatus } from '../follow/follower.js';
import type { DeviceCodeAnswer } from '../link/server-api.js';

export interface FollowState {
  follower: Follower | null;
  /** The code offered while linking, shown on the status page until linked. */
  pendingCode: DeviceCodeAnswer | null;
  status: FollowerStatus;
  /** Resolves once linked (at once when already linked). */
  linked: Promise<void>;
  markLinked(): void;
}

export function createFollowState(): FollowState {
  let markLinked: () => void = () => undefined;
  const linked = new Promise<void>((resolve) => (markLinked = resolve));
  return {
    follower: null,
    pendingCode: null,
    status: { state: 'connecting', sessionKey: null, message: null, lastEventAt: null },
    linked,
    markLinked,
  };
}
