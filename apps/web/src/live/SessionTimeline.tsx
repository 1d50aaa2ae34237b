import {
  deriveFlagTimeline,
  findNextFlagChange,
  formatTimelineTime,
  type FlagTimeline,
  type TimelineChange,
} from '@flaglight/core';
import { useMutation } from '@tanstack/react-query';
import { SkipForward } from 'lucide-react';
import { MAX_START_MINUTES, startReplay } from '../replays/replays-api';
import { FlagTimelineStrip } from '../timeline/FlagTimelineStrip';
import { buttonClass } from '../ui/button-styles';
import { useNow } from '../ui/use-now';
import { useLiveConnectionContext } from './live-connection-context';
import type { LiveTarget, ShownFlag } from './use-live-connection';

/** How often the strip and its position move on. */
export const TIMELINE_TICK_MS = 1_000;
/** "Next flag change" looks past this much of the present, so a second press moves on again. */
const NEXT_CHANGE_LOOKAHEAD_MS = 1_000;

type Replay = Extract<LiveTarget, { kind: 'replay' }>;

function toChange(shown: ShownFlag): TimelineChange {
  if (shown.flag === 'safety') return { at: shown.at, state: 'yellow', activeSectors: [], safetyCar: true };
  if (shown.flag === 'yellow')
    return { at: shown.at, state: 'yellow', activeSectors: shown.activeSectors, safetyCar: false };
  return { at: shown.at, state: shown.flag, activeSectors: shown.activeSectors };
}

/**
 * Where a replay is, as the panel shows it: its start plus the time played at its speed, behind the
 * broadcast delay like the lights.
 */
export function replayPositionMs(
  replay: Pick<Replay, 'startMinutes' | 'speed'>,
  timing: { connectedAt: number; now: number; delayMs: number; lengthMs: number },
): number {
  const played = Math.max(0, timing.now - timing.connectedAt - timing.delayMs) * replay.speed;
  return Math.min(timing.lengthMs, replay.startMinutes * 60_000 + played);
}

/**
 * The followed session in one picture (Race Control). Live, the strip grows from the moment of
 * connecting with the flags the panel showed; a bundled replay shows the whole recording with its
 * position, and can move along it: a period picked on the strip or the next flag change restarts
 * the replay there, and the lights follow (after the delay, as always).
 */
export function SessionTimeline() {
  const { state, connect, delayMs } = useLiveConnectionContext();
  const { target, connectedAt, status } = state;
  const now = useNow(status !== 'disconnected', TIMELINE_TICK_MS);
  const replay = target?.kind === 'replay' ? target : null;
  const seekable = replay?.timeline && replay.source && replay.id ? replay : null;

  const seek = useMutation({
    mutationFn: async (positionMs: number) => {
      if (!seekable) throw new Error('This replay cannot move');
      const startMinutes = Math.min(MAX_START_MINUTES, Math.max(0, positionMs / 60_000));
      const sessionKey = await startReplay({
        source: seekable.source!,
        id: seekable.id!,
        speed: seekable.speed,
        startMinutes,
      });
      return { sessionKey, startMinutes };
    },
    onSuccess: ({ sessionKey, startMinutes }) => {
      if (seekable) connect({ ...seekable, sessionKey, startMinutes }, { resume: true });
    },
  });

  if (status === 'disconnected' || connectedAt === null) return null;

  let timeline: FlagTimeline;
  let positionMs: number;
  if (replay?.timeline) {
    timeline = replay.timeline;
    positionMs = replayPositionMs(replay, { connectedAt, now, delayMs, lengthMs: timeline.lengthMs });
  } else {
    timeline = deriveFlagTimeline(state.flags.map(toChange), {
      start: connectedAt,
      end: Math.max(now, connectedAt),
    });
    positionMs = timeline.lengthMs;
  }
  const next = seekable ? findNextFlagChange(timeline, positionMs + NEXT_CHANGE_LOOKAHEAD_MS) : null;
  const label = replay?.timeline ? 'Flag timeline of the replay' : 'Flag timeline since connecting';

  return (
    <section aria-label="Session timeline" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">The session in one picture</h3>
        <span className="text-caption text-ink-300 tabular-nums">
          {formatTimelineTime(positionMs)} / {formatTimelineTime(timeline.lengthMs)}
        </span>
      </div>
      <FlagTimelineStrip
        timeline={timeline}
        positionMs={positionMs}
        label={label}
        {...(seekable ? { onSeek: (ms: number) => seek.mutate(ms) } : {})}
      />
      {seekable && (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            disabled={next === null || seek.isPending}
            onClick={() => next !== null && seek.mutate(next)}
          >
            <SkipForward aria-hidden="true" className="size-4" />
            Jump to next flag change
          </button>
          <p className="text-caption text-ink-300">
            {seek.isPending ? 'Moving the replay…' : 'Pick a period on the strip to go there.'}
          </p>
        </div>
      )}
      {seek.isError && (
        <p role="alert" className="text-danger">
          Could not move the replay: {seek.error.message}
        </p>
      )}
    </section>
  );
}
