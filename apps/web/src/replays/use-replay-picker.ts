import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  DEFAULT_REPLAY_SPEED,
  fetchReplays,
  MAX_REPLAY_SPEED,
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
  /** The recording's session ("Practice 2", "Race"): which kinds of session the lights follow decides. */
  sessionName?: string;
  /** What was started, so Race Control can start it again elsewhere (jumping along its timeline). */
  source: ReplayChoice['source'];
  id: string;
  timeline?: ReplayChoice['timeline'];
}

export interface OnlineSessions {
  year: number;
  sessions: ReplayChoice[];
  message: string | null;
}

export const choiceKey = (c: Pick<ReplayChoice, 'source' | 'id'>) => `${c.source}:${c.id}`;

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

/** A season's sessions fetched from OpenF1 on request, added above the bundled recordings. */
function useOnlineSeason() {
  const [year, setYear] = useState(() => new Date().getFullYear() - 1);
  const [online, setOnline] = useState<OnlineSessions | null>(null);
  const loadYear = useMutation({
    mutationFn: (y: number) => fetchReplays(y),
    onSuccess: (answer, y) =>
      setOnline({
        year: y,
        sessions: answer.sessions.filter((s) => s.source === 'openf1'),
        message: answer.message,
      }),
  });
  return { year, setYear, online, loadYear };
}

export type OnlineSeason = ReturnType<typeof useOnlineSeason>;

/**
 * The picker's state: the recordings (bundled, and OpenF1's when loaded), the chosen one, the
 * speed and start minute as typed and as used, and the start request.
 */
export function useReplayPicker(onStarted: (replay: StartedReplay) => void) {
  const [open, setOpen] = useState(false);
  const bundled = useQuery({
    queryKey: ['replays', 'bundled'],
    queryFn: () => fetchReplays(),
    enabled: open,
  });
  const season = useOnlineSeason();
  const [selected, setSelected] = useState<string>('');
  const [speedText, setSpeedText] = useState(String(DEFAULT_REPLAY_SPEED));
  const [startText, setStartText] = useState<string | null>(null);

  // In the order the list shows them: OpenF1's season first, then the bundled ones, newest first.
  const bundledGroups = groupByYear(bundled.data?.sessions ?? []);
  const choices = [...(season.online?.sessions ?? []), ...bundledGroups.flatMap(([, list]) => list)];
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
        ...(choice.sessionName ? { sessionName: choice.sessionName } : {}),
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

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) start.reset();
  };

  return {
    open,
    onOpenChange,
    bundled,
    bundledGroups,
    season,
    current,
    choose,
    suggested,
    startMinutes,
    startText,
    setStartText,
    speed,
    speedText,
    setSpeedText,
    start,
    submit,
  };
}

export type ReplayPickerState = ReturnType<typeof useReplayPicker>;
