import type { Logger } from 'pino';
import type { OpenF1Client } from '../openf1/client.js';
import type { Bus } from './bus.js';
import type { Timers } from './clock.js';
import { SessionDeriver } from './deriver.js';
import type { F1Feed } from './f1-feed.js';
import { followF1 } from './follower-f1.js';
import { followOpenF1 } from './follower-openf1.js';
import type { PushConnector } from './push.js';
import type { FlagEventData, StatusEventData } from './types.js';

export { PUSH_RETRY_MS } from './follower-openf1.js';

/** How one live source is doing for this follower. */
export interface SourceHealth {
  /** null until the source has answered once. */
  healthy: boolean | null;
  /** Clock (ms) of the last message or good answer; null before any. */
  lastMessageAt: number | null;
  error: string | null;
}

export interface Follower {
  readonly sessionKey: number;
  transport(): StatusEventData['transport'];
  status(): StatusEventData;
  /** OpenF1's health as this follower sees it (its polls and push); live followers only. */
  openf1?(): SourceHealth;
  stop(): void;
}

export interface LiveFollowerOptions {
  sessionKey: number;
  client: OpenF1Client;
  bus: Bus;
  timers: Timers;
  logger?: Logger;
  /** The push feed; without it (or without credentials) the follower only polls. */
  connectPush?: PushConnector | undefined;
  /** Highest event id this session has used, so ids keep increasing across restarts. */
  lastId?: number;
  /** The state subscribers already have (from a follower before this one, maybe on another instance). */
  known?: FlagEventData | null;
  /** The instance's F1 live-timing connection: the second source, preferred while healthy. */
  f1?: F1Feed | undefined;
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
