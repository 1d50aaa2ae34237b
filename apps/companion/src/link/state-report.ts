import { DeviceStateSchema, type DeviceState } from '@flaglight/contract';
import { escapeLogText } from '@flaglight/core';
import type { StreamState } from '../follow/follower.js';
import type { Logger } from '../system/log.js';
import { ServerError, type ServerApi } from './server-api.js';

/**
 * How often the companion looks at what it does, and when it tells the server: a change is said
 * within `checkMs` (the server takes 60 reports a minute); a report that did not arrive is tried again
 * after `retryMs`, and the same state is said again every `refreshMs` (a server restarted meanwhile
 * has it back).
 */
export const STATE_REPORT_TIMING = { checkMs: 1_000, retryMs: 15_000, refreshMs: 10 * 60_000 };

export interface StateSources {
  token(): string | undefined;
  bridgePort(): number | null;
  paused(): boolean;
  stream(): { state: StreamState; message: string | null };
  showing(): string | null;
}

/** The stream as the web app names it; null while there is nothing to say (not linked, stopped). */
function streamOf(state: StreamState): DeviceState['stream'] | null {
  switch (state) {
    case 'following':
    case 'polling':
      return 'following';
    case 'waiting':
      return 'waiting';
    case 'refused':
      return 'refused';
    case 'connecting':
    case 'reconnecting':
      return 'reconnecting';
    default:
      return null;
  }
}

/** What the companion says of itself now, checked against the contract; null when it has nothing to say. */
export function currentDeviceState(sources: StateSources): DeviceState | null {
  const port = sources.bridgePort();
  const stream = sources.stream();
  const said = streamOf(stream.state);
  if (port === null || said === null) return null;
  const parsed = DeviceStateSchema.safeParse({
    bridgePort: port,
    paused: sources.paused(),
    stream: said,
    message: stream.message === null ? null : escapeLogText(stream.message, { max: 200 }),
    showing: sources.showing(),
  });
  return parsed.success ? parsed.data : null;
}

/**
 * Tells the server what this companion does (`PUT /api/device/state`) whenever it changes, so every
 * page of the account shows the same: its port for Test on this computer, paused, its stream, the
 * flag its lights show. Never throws; a refusal is logged once per reason.
 */
export function startStateReporter(options: {
  api: ServerApi;
  log: Logger;
  sources: StateSources;
  timing?: typeof STATE_REPORT_TIMING;
}): { close(): void; now(): void } {
  const timing = options.timing ?? STATE_REPORT_TIMING;
  let sent: string | null = null;
  let sentAt = 0;
  let retryAfter = 0;
  let busy = false;
  let lastRefusal: string | null = null;

  const check = async () => {
    const token = options.sources.token();
    const state = currentDeviceState(options.sources);
    if (busy || !token || state === null) return;
    const json = JSON.stringify(state);
    const now = Date.now();
    if (now < retryAfter || (json === sent && now - sentAt < timing.refreshMs)) return;
    busy = true;
    try {
      await options.api.reportState(token, state);
      sent = json;
      sentAt = Date.now();
      lastRefusal = null;
    } catch (error) {
      retryAfter = Date.now() + timing.retryMs;
      const why = error instanceof ServerError ? `${error.status}: ${error.message}` : String(error);
      if (why !== lastRefusal) options.log.warn(`The server did not take this companion's state (${why})`);
      lastRefusal = why;
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), timing.checkMs);
  timer.unref();
  return {
    close: () => clearInterval(timer),
    now: () => {
      retryAfter = 0;
      void check();
    },
  };
}
