import { SessionDeriver } from './deriver.js';
import { followF1 } from './follower-f1.js';
import { followOpenF1 } from './follower-openf1.js';
import type { LiveFollowerOptions, SourceHealth } from './follower-options.js';
import type { StatusEventData } from './types.js';

export type { LiveFollowerOptions, SourceHealth } from './follower-options.js';

export { PUSH_RETRY_MS } from './follower-openf1.js';

export interface Follower {
  readonly sessionKey: number;
  transport(): StatusEventData['transport'];
  status(): StatusEventData;
  /** OpenF1's health as this follower sees it (its polls and push); live followers only. */
  openf1?(): SourceHealth;
  stop(): void;
}

/**
 * Follows one live session (DESIGN §1, §4) from its sources (decision 021). OpenF1: the whole
 * race-control history once, then the push feed when credentials allow, otherwise REST polling of
 * `date>` the newest record seen; when the push drops, polling starts at once with a catch-up poll,
 * so nothing is missed in between. F1 live timing (when the instance has it): its state of the
 * session when it is healthy, then its TrackStatus, SessionStatus and race control as they come;
 * when it fails, the track-wide state goes back to race control (which OpenF1 keeps bringing),
 * and when it is back, its TrackStatus leads again. One fusion takes both; each message counts once.
 */
export function startLiveFollower(options: LiveFollowerOptions): Follower {
  const { sessionKey, bus, timers } = options;
  const deriver = new SessionDeriver(
    sessionKey,
    bus,
    timers.now,
    options.lastId ?? 0,
    options.known ?? null,
    timers,
  );
  const openf1 = followOpenF1(options, deriver);
  const f1 = followF1({ sessionKey, f1: options.f1, deriver, logger: options.logger });
  deriver.setStatus('starting', openf1.canPush ? 'push' : 'polling', null);
  f1.attach();
  openf1.start();

  return {
    sessionKey,
    transport: openf1.transport,
    status: () => deriver.currentStatus(),
    openf1: openf1.health,
    stop() {
      openf1.stop();
      f1.stop();
      deriver.dispose();
      deriver.setStatus(deriver.currentStatus().upstream, 'none', null);
    },
  };
}
