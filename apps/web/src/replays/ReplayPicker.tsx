import * as Dialog from '@radix-ui/react-dialog';
import { History, X } from 'lucide-react';
import { useId } from 'react';
import { FlagTimelineStrip } from '../timeline/FlagTimelineStrip';
import { buttonClass } from '../ui/button-styles';
import {
  MAX_REPLAY_SPEED,
  MAX_REPLAYS_PER_ACCOUNT,
  MAX_START_MINUTES,
  MIN_REPLAY_SPEED,
  replayTitle,
} from './replays-api';
import {
  choiceKey,
  useReplayPicker,
  type OnlineSeason,
  type ReplayPickerState,
  type StartedReplay,
} from './use-replay-picker';

export type { StartedReplay } from './use-replay-picker';

const FIRST_OPENF1_YEAR = 2023;

/**
 * Picks a recorded session, a speed (1–20×) and a start minute, starts it on the server and hands
 * its session key to Race Control, which follows it through the same stream as a live session.
 * Outside a race weekend this is how a fan tries the product.
 */
export function ReplayPicker({
  onStarted,
  disabled = false,
}: {
  onStarted: (replay: StartedReplay) => void;
  disabled?: boolean;
}) {
  const picker = useReplayPicker(onStarted);
  const hintId = useId();
  const { start } = picker;

  return (
    <Dialog.Root open={picker.open} onOpenChange={picker.onOpenChange}>
      <Dialog.Trigger className={buttonClass('secondary')} disabled={disabled}>
        <History aria-hidden="true" className="size-5" />
        Watch a replay
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink-950/80 backdrop-blur-sm motion-safe:animate-backdrop-in" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[min(34rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-card border border-ink-600 bg-ink-800 p-6 shadow-card motion-safe:animate-route-fade">
          <div className="flex items-start justify-between gap-3">
            <Dialog.Title className="font-display text-2xl font-bold tracking-tight uppercase italic">
              Watch a replay
            </Dialog.Title>
            <Dialog.Close className={buttonClass('ghost', 'sm')} aria-label="Close">
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="text-ink-300">
            Replay a real session's race control, flags and all, on this screen and the lights this browser
            drives. A companion's home-network lights stay on the live race (decision 040). Pick where to
            start and how fast to play it. Your account runs up to {MAX_REPLAYS_PER_ACCOUNT} replays at once:
            starting another ends your oldest.
          </Dialog.Description>

          <form onSubmit={picker.submit} className="flex flex-col gap-4">
            <RecordingField picker={picker} />
            <SpeedAndStartFields picker={picker} />
            <OnlineSeasonLoader season={picker.season} />

            {start.isError && (
              <p role="alert" className="text-danger">
                Could not start the replay: {start.error.message}
              </p>
            )}
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Dialog.Close className={buttonClass('secondary')}>Cancel</Dialog.Close>
              <button
                type="submit"
                className={buttonClass('primary')}
                disabled={!picker.current || start.isPending}
                aria-describedby={hintId}
              >
                {start.isPending ? 'Starting…' : 'Start replay'}
              </button>
            </div>
            <p id={hintId} className="sr-only">
              Starts the replay and connects Race Control to it.
            </p>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The recording to replay: grouped by source and season, with its length and flag timeline. */
function RecordingField({ picker }: { picker: ReplayPickerState }) {
  const { bundled, bundledGroups, current, startMinutes } = picker;
  const online = picker.season.online;
  const recordingId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={recordingId} className="font-semibold">
        Recording
      </label>
      {bundled.isPending ? (
        <p role="status" className="text-ink-300">
          Loading recordings…
        </p>
      ) : bundled.isError ? (
        <p role="alert" className="text-danger">
          Could not load the recordings: {bundled.error.message}
        </p>
      ) : (
        <select
          id={recordingId}
          value={current ? choiceKey(current) : ''}
          onChange={(e) => picker.choose(e.target.value)}
          className="min-h-11 rounded-control border border-ink-600 bg-ink-900 px-3 text-ink-100"
        >
          {online && online.sessions.length > 0 && (
            <optgroup label={`OpenF1 ${online.year}`}>
              {online.sessions.map((c) => (
                <option key={choiceKey(c)} value={choiceKey(c)}>
                  {replayTitle(c)}
                </option>
              ))}
            </optgroup>
          )}
          {bundledGroups.map(([y, list]) => (
            <optgroup key={y} label={`Bundled ${y}`}>
              {list.map((c) => (
                <option key={choiceKey(c)} value={choiceKey(c)}>
                  {replayTitle(c)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      )}
      {current?.lengthMinutes != null && (
        <p className="text-caption text-ink-300">
          {current.lengthMinutes} minutes of race control; the action starts around minute{' '}
          {current.suggestedStartMinutes}.
        </p>
      )}
      {current?.timeline && (
        <div className="flex flex-col gap-1 pt-1">
          <FlagTimelineStrip
            timeline={current.timeline}
            positionMs={startMinutes * 60_000}
            label={`Flags of ${replayTitle(current)}; choose where to start`}
            onSeek={(ms) => picker.setStartText(String(Math.floor(ms / 60_000)))}
          />
          <p className="text-caption text-ink-300">
            The session's flags; the line marks the start. Pick a period to start there.
          </p>
        </div>
      )}
    </div>
  );
}

/** How fast to play and where to start, each a number typed and clamped when used. */
function SpeedAndStartFields({ picker }: { picker: ReplayPickerState }) {
  const speedId = useId();
  const startId = useId();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={speedId} className="font-semibold">
          Speed ({MIN_REPLAY_SPEED}–{MAX_REPLAY_SPEED}×)
        </label>
        <input
          id={speedId}
          type="number"
          inputMode="numeric"
          min={MIN_REPLAY_SPEED}
          max={MAX_REPLAY_SPEED}
          step={1}
          value={picker.speedText}
          onChange={(e) => picker.setSpeedText(e.target.value)}
          onBlur={() => picker.setSpeedText(String(picker.speed))}
          className="min-h-11 rounded-control border border-ink-600 bg-ink-900 px-3 text-ink-100 tabular-nums"
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={startId} className="font-semibold">
          Start at minute
        </label>
        <input
          id={startId}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_START_MINUTES}
          step={1}
          value={picker.startText ?? String(picker.suggested)}
          onChange={(e) => picker.setStartText(e.target.value)}
          className="min-h-11 rounded-control border border-ink-600 bg-ink-900 px-3 text-ink-100 tabular-nums"
        />
      </div>
    </div>
  );
}

/** Loads one season's sessions from OpenF1 into the recording list, and says how that went. */
function OnlineSeasonLoader({ season }: { season: OnlineSeason }) {
  const { year, setYear, online, loadYear } = season;
  const yearId = useId();
  return (
    <details className="rounded-control border border-ink-600 p-3">
      <summary className="cursor-pointer font-semibold">More sessions from OpenF1 (online)</summary>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={yearId}>Season</label>
          <select
            id={yearId}
            value={year}
            onChange={(e) => setYear(Number(e.target.value))}
            className="min-h-11 rounded-control border border-ink-600 bg-ink-900 px-3 text-ink-100"
          >
            {Array.from(
              { length: new Date().getFullYear() - FIRST_OPENF1_YEAR + 1 },
              (_, i) => new Date().getFullYear() - i,
            ).map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={buttonClass('secondary')}
          disabled={loadYear.isPending}
          onClick={() => loadYear.mutate(year)}
        >
          {loadYear.isPending ? 'Loading…' : 'Load sessions'}
        </button>
      </div>
      {loadYear.isError && (
        <p role="alert" className="mt-2 text-danger">
          {loadYear.error.message}
        </p>
      )}
      {online && (
        <p role="status" className="mt-2 text-caption text-ink-300">
          {online.message
            ? `OpenF1 is not reachable: ${online.message}`
            : `${online.sessions.length} sessions from ${online.year} added to the list.`}
        </p>
      )}
    </details>
  );
}
