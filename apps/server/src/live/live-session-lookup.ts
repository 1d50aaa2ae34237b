// Which session is live now, asked of F1 live timing and OpenF1 (whose answer is cached briefly).
import { isWithinConnectWindow, LiveSessionSchema, type LiveSession } from '@flaglight/core';
import type { OpenF1Client, OpenF1Result } from '../openf1/client.js';
import type { Timers } from './clock.js';
import type { F1Feed } from './f1-feed.js';

/** How long the answer to "which session is live" is reused. */
export const LIVE_SESSION_TTL_MS = 30_000;
/** A failed lookup is retried sooner than a successful one is refreshed. */
const FAILED_LOOKUP_TTL_MS = 3_000;

/** OpenF1's health as the last sessions lookup saw it. */
export interface LookupHealth {
  healthy: boolean;
  lastMessageAt: number | null;
  error: string | null;
}

export function createLiveSessionLookup(options: {
  client: OpenF1Client;
  timers: Timers;
  f1?: F1Feed | undefined;
}) {
  const { client, timers } = options;
  let cache: { until: number; session: LiveSession | null } | null = null;
  let lookup: Promise<LiveSession | null> | null = null;
  /** OpenF1's health when no follower asks it anything: the last sessions lookup. */
  const health: LookupHealth = { healthy: false, lastMessageAt: null, error: null };

  async function lookUpOpenF1(): Promise<LiveSession | null> {
    const result = await client.get<unknown[]>('/v1/sessions?session_key=latest');
    health.healthy = result.ok;
    if (result.ok) health.lastMessageAt = timers.now();
    health.error = result.ok ? null : result.message;
    const session = latestSession(result);
    const live =
      session && isWithinConnectWindow(Date.parse(session.date_start), { now: timers.now() })
        ? session
        : null;
    cache = {
      until: timers.now() + (result.ok ? LIVE_SESSION_TTL_MS : FAILED_LOOKUP_TTL_MS),
      session: live,
    };
    return live;
  }

  async function openF1LiveSession(): Promise<LiveSession | null> {
    const now = timers.now();
    if (cache && cache.until > now) return cache.session;
    lookup ??= lookUpOpenF1().finally(() => {
      lookup = null;
    });
    return lookup;
  }

  return {
    health,

    /**
     * The session live now: the one F1 live timing says is under way (start times move; the feed
     * knows first), else OpenF1's latest within its connect window; OpenF1's row when both agree.
     */
    async currentLiveSession(): Promise<LiveSession | null> {
      const running = options.f1?.runningSession() ?? null;
      const listed = await openF1LiveSession();
      if (running && listed?.session_key !== running.session_key) return running;
      return listed;
    },
  };
}

/** The latest session OpenF1 listed that is not cancelled. */
function latestSession(result: OpenF1Result<unknown[]>): LiveSession | null {
  const rows = result.ok && Array.isArray(result.data) ? result.data : [];
  const parsed = rows.map((row) => LiveSessionSchema.safeParse(row)).filter((p) => p.success);
  return parsed.map((p) => p.data).find((s) => !s.is_cancelled) ?? null;
}
