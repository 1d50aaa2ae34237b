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
  /** Where a restarted replay of this recording begins. */
  fixture: string;
  positionMinutes: number;
  /**
   * With it, the demo recording's replay starts again (as a new session, at `positionMinutes`) as
   * soon as it reaches this position, with no pause: the loop of its eventful stretch.
   */
  loopEndMinutes?: number | undefined;
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
 * a live race. With `loopEndMinutes`, the demo recording starts again when it reaches that position
 * (the newcomer's demo loops the race's eventful stretch). Replays cleared on purpose (through
 * `/_control`) are left cleared, and a paused one has not ended.
 */
export function startDemoLoop(options: DemoLoopOptions): DemoLoop {
  const { control, timers } = options;
  let timer: TimerHandle | null = null;
  let stopped = false;
  let restarts = 0;

  const loopEndMs = options.loopEndMinutes === undefined ? null : options.loopEndMinutes * 60_000;
  /** The looped demo replay, when it is the only one and playing. */
  const looped = (replays: ReplayInfo[]): ReplayInfo | null => {
    const only = replays.length === 1 ? replays[0] : undefined;
    return loopEndMs !== null && only?.fixture === options.fixture && only.speed > 0 ? only : null;
  };

  function restart(last: ReplayInfo, positionMinutes: number): void {
    const replay = control.setReplays([{ fixture: last.fixture, speed: last.speed, positionMinutes }])[0];
    restarts += 1;
    options.logger?.info({ sessionKey: replay?.sessionKey, fixture: last.fixture }, 'demo race restarted');
  }

  /** The next check: at the loop's end when that comes first, else after DEMO_CHECK_MS. */
  function schedule(): void {
    const loop = looped(control.replays());
    const untilEnd =
      loop && loopEndMs !== null ? Math.max(0, (loopEndMs - loop.positionMs) / loop.speed) : Infinity;
    timer = timers.setTimeout(check, Math.min(DEMO_CHECK_MS, untilEnd));
  }

  function check(): void {
    timer = null;
    if (stopped) return;
    const replays = control.replays();
    const now = timers.now();
    const loop = looped(replays);
    if (loop && loopEndMs !== null && loop.positionMs >= loopEndMs) {
      restart(loop, options.positionMinutes);
    } else if (replays.length > 0 && replays.every(ended)) {
      const last = replays.reduce((a, b) => (Date.parse(a.dateEnd) >= Date.parse(b.dateEnd) ? a : b));
      if (Date.parse(last.dateEnd) + DEMO_RESTART_PAUSE_MS <= now) {
        restart(last, last.fixture === options.fixture ? options.positionMinutes : 0);
      }
    }
    schedule();
  }

  schedule();
  return {
    restarts: () => restarts,
    stop() {
      stopped = true;
      if (timer) timers.clearTimeout(timer);
    },
  };
}
