import type { OpenF1SimControl, ReplayInfo } from '@flaglight/sims';
import type { Logger } from 'pino';
import type { TimerHandle, Timers } from '../live/clock.js';

/** After the replayed race ends, its chequered flag stays the live session this long. */
export const DEMO_RESTART_PAUSE_MS = 2 * 60_000;
/** How often demo mode looks whether its race has ended. */
export const DEMO_CHECK_MS = 30_000;

export interface DemoLoopOptions {
  control: OpenF1SimControl;
  timers: Timers;
  /** Where a restarted replay of this recording begins (demo: the Saudi race at 75 minutes). */
  fixture: string;
  positionMinutes: number;
  logger?: Logger | undefined;
}

export interface DemoLoop {
  stop(): void;
  restarts(): number;
}

const ended = (r: ReplayInfo) => r.speed > 0 && r.positionMs >= r.lengthMs;

/**
 * Demo mode's endless race weekend (DESIGN §4): the simulator replays a bundled race as the live
 * session; when every replay has run to its end, the last one starts again (the demo race at its
 * demo position, any other from its first message) as a new session, so a newcomer always finds
 * a live race. Replays cleared on purpose (through `/_control`) are left cleared, and a paused one
 * has not ended.
 */
export function startDemoLoop(options: DemoLoopOptions): DemoLoop {
  const { control, timers } = options;
  let timer: TimerHandle | null = null;
  let stopped = false;
  let restarts = 0;

  function check(): void {
    timer = null;
    if (stopped) return;
    const replays = control.replays();
    const now = timers.now();
    if (replays.length > 0 && replays.every(ended)) {
      const last = replays.reduce((a, b) => (Date.parse(a.dateEnd) >= Date.parse(b.dateEnd) ? a : b));
      if (Date.parse(last.dateEnd) + DEMO_RESTART_PAUSE_MS <= now) {
        const replay = control.setReplays([
          {
            fixture: last.fixture,
            speed: last.speed,
            positionMinutes: last.fixture === options.fixture ? options.positionMinutes : 0,
          },
        ])[0];
        restarts += 1;
        options.logger?.info(
          { sessionKey: replay?.sessionKey, fixture: last.fixture },
          'demo race restarted',
        );
      }
    }
    timer = timers.setTimeout(check, DEMO_CHECK_MS);
  }

  timer = timers.setTimeout(check, DEMO_CHECK_MS);
  return {
    restarts: () => restarts,
    stop() {
      stopped = true;
      if (timer) timers.clearTimeout(timer);
    },
  };
}
