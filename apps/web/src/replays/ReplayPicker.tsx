import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQuery } from '@tanstack/react-query';
import { History, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { FlagTimelineStrip } from '../timeline/FlagTimelineStrip';
import { buttonClass } from '../ui/button-styles';
import {
  DEFAULT_REPLAY_SPEED,
  fetchReplays,
  MAX_REPLAY_SPEED,
  MAX_REPLAYS_PER_ACCOUNT,
  MAX_START_MINUTES,
  MIN_REPLAY_SPEED,
  replayTitle,
  startReplay,
  type ReplayChoice,
} from './replays-api';

export interface StartedReplay {
  sessionKey: number;
  title: string;
  speed: number;
  startMinutes: number;
  /** What was started, so Race Control can start it again elsewhere (jumping along its timeline). */
  source: ReplayChoice['source'];
  id: string;
  timeline?: ReplayChoice['timeline'];
}

const FIRST_OPENF1_YEAR = 2023;
const choiceKey = (c: Pick<ReplayChoice, 'source' | 'id'>) => `${c.source}:${c.id}`;

function groupByYear(choices: ReplayChoice[]): [number, ReplayChoice[]][] {
  const groups = new Map<number, ReplayChoice[]>();
  for (const choice of choices) groups.set(choice.year, [...(groups.get(choice.year) ?? []), choice]);
  return [...groups.entries()].sort((a, b) => b[0] - a[0]);
}

function clampInt(text: string, min: number, max: number): number | null {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return null;
  return Math.min(max, Math.max(min, Math.round(value)));
}

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
  const [open, setOpen] = useState(false);
  const ids = { recording: useId(), speed: useId(), start: useId(), year: useId(), hint: useId() };
  const bundled = useQuery({
    queryKey: ['replays', 'bundled'],
    queryFn: () => fetchReplays(),
    enabled: open,
  });
  const [year, setYear] = useState(() => new Date().getFullYear() - 1);
  const [online, setOnline] = useState<{
    year: number;
    sessions: ReplayChoice[];
    message: string | null;
  } | null>(null);
  const loadYear = useMutation({
    mutationFn: (y: number) => fetchReplays(y),
    onSuccess: (answer, y) =>
      setOnline({
        year: y,
        sessions: answer.sessions.filter((s) => s.source === 'openf1'),
        message: answer.message,
      }),
  });
  const [selected, setSelected] = useState<string>('');
  const [speedText, setSpeedText] = useState(String(DEFAULT_REPLAY_SPEED));
  const [startText, setStartText] = useState<string | null>(null);

  // In the order the list shows them: OpenF1's season first, then the bundled ones, newest first.
  const bundledGroups = groupByYear(bundled.data?.sessions ?? []);
  const choices = [...(online?.sessions ?? []), ...bundledGroups.flatMap(([, list]) => list)];
  const current = choices.find((c) => choiceKey(c) === selected) ?? choices[0] ?? null;
  const suggested = current?.suggestedStartMinutes ?? 0;
  const startMinutes =
    startText === null ? suggested : (clampInt(startText, 0, MAX_START_MINUTES) ?? suggested);
  const speed = clampInt(speedText, MIN_REPLAY_SPEED, MAX_REPLAY_SPEED) ?? DEFAULT_REPLAY_SPEED;

  const start = useMutation({
    mutationFn: (choice: ReplayChoice) =>
      startReplay({ source: choice.source, id: choice.id, speed, startMinutes }),
    onSuccess: (sessionKey, choice) => {
      setOpen(false);
      onStarted({
        sessionKey,
        title: replayTitle(choice),
        speed,
        startMinutes,
        source: choice.source,
        id: choice.id,
        ...(choice.timeline ? { timeline: choice.timeline } : {}),
      });
    },
  });

  const choose = (key: string) => {
    setSelected(key);
    setStartText(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (current) start.mutate(current);
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) start.reset();
      }}
    >
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

          <form onSubmit={submit} className="flex flex-col gap-4">
            <div className="flex flex-col gap-1.5">
              <label htmlFor={ids.recording} className="font-semibold">
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
                  id={ids.recording}
                  value={current ? choiceKey(current) : ''}
                  onChange={(e) => choose(e.target.value)}
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
                    onSeek={(ms) => setStartText(String(Math.floor(ms / 60_000)))}
                  />
                  <p className="text-caption text-ink-300">
                    The session's flags; the line marks the start. Pick a period to start there.
                  </p>
                </div>
              )}
            </div>

            <div className="grid gap-4 sm:grid-cols-2">
              <div className="flex flex-col gap-1.5">
                <label htmlFor={ids.speed} className="font-semibold">
                  Speed ({MIN_REPLAY_SPEED}–{MAX_REPLAY_SPEED}×)
                </label>
                <input
                  id={ids.speed}
                  type="number"
                  inputMode="numeric"
                  min={MIN_REPLAY_SPEED}
                  max={MAX_REPLAY_SPEED}
                  step={1}
                  value={speedText}
                  onChange={(e) => setSpeedText(e.target.value)}
                  onBlur={() => setSpeedText(String(speed))}
                  className="min-h-11 rounded-control border border-ink-600 bg-ink-900 px-3 text-ink-100 tabular-nums"
                />
              </div>
              <div className="flex flex-col gap-1.5">
                <label htmlFor={ids.start} className="font-semibold">
                  Start at minute
                </label>
                <input
                  id={ids.start}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_START_MINUTES}
                  step={1}
                  value={startText ?? String(suggested)}
                  onChange={(e) => setStartText(e.target.value)}
                  className="min-h-11 rounded-control border border-ink-600 bg-ink-900 px-3 text-ink-100 tabular-nums"
                />
              </div>
            </div>

            <details className="rounded-control border border-ink-600 p-3">
              <summary className="cursor-pointer font-semibold">More sessions from OpenF1 (online)</summary>
              <div className="mt-3 flex flex-wrap items-end gap-3">
                <div className="flex flex-col gap-1.5">
                  <label htmlFor={ids.year}>Season</label>
                  <select
                    id={ids.year}
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
                disabled={!current || start.isPending}
                aria-describedby={ids.hint}
              >
                {start.isPending ? 'Starting…' : 'Start replay'}
              </button>
            </div>
            <p id={ids.hint} className="sr-only">
              Starts the replay and connects Race Control to it.
            </p>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
