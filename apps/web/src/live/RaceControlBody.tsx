import {
  createFallbackPracticeSession,
  formatTimelineTime,
  shouldShowTrialExpiredModal,
} from '@flaglight/core';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, History, Plug, PlugZap, Radio, WifiOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useAppConfig } from '../api/app-config';
import { useAuth } from '../auth/auth-context';
import { useCompanionDevices } from '../companion/companion-store';
import { useLights } from '../lights/lights-context';
import { ReplayPicker } from '../replays/ReplayPicker';
import { useSchedule } from '../schedule/schedule-api';
import { useLocalSettings } from '../settings/local-settings';
import { buttonClass } from '../ui/button-styles';
import { WakeLockNote } from '../ui/WakeLockNote';
import { FeedHealth } from './FeedHealth';
import { FlagHistory, FlagStatus } from './FlagStatus';
import { fetchCurrentSession, type CurrentSession } from './live-api';
import { useLiveConnectionContext } from './live-connection-context';
import { LIVE_TEXTS } from './live-texts';
import { SessionCountdown } from './SessionCountdown';
import { SessionTimeline } from './SessionTimeline';
import { TestFlags } from './TestFlags';
import type { LiveConnectionState } from './use-live-connection';

export const CURRENT_SESSION_QUERY_KEY = ['f1', 'current'] as const;
/** How often the dashboard asks whether a session went live (the server caches that answer 30 s). */
export const CURRENT_SESSION_REFRESH_MS = 30_000;
/** Auto-connect's wait before trying a failed connect again: 5, 10, 20, 40, 60, 60 … s. */
export function autoConnectRetryDelay(retries: number): number {
  return Math.min(60_000, 5_000 * 2 ** retries);
}

const localTime = (iso: string) =>
  new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(Date.parse(iso));

function SessionSummary({
  current,
  state,
}: {
  current: CurrentSession | undefined;
  state: LiveConnectionState;
}) {
  const { target } = state;
  // Demo mode's live session is a recorded race: say so, never pretend it is live.
  const demoRecording = useAppConfig().data?.demoRecording;
  if (target?.kind === 'replay') {
    return (
      <div className="flex flex-col gap-1">
        <span className="inline-flex w-fit items-center gap-2 rounded-full bg-flag-fastest-lap px-3 py-1 text-caption font-bold text-on-accent uppercase">
          <History aria-hidden="true" className="size-4" />
          Replay
        </span>
        <p className="text-xl font-semibold">{target.title}</p>
        <p className="text-ink-300">
          A recorded session at {target.speed}× from{' '}
          {Number.isInteger(target.startMinutes)
            ? `minute ${target.startMinutes}`
            : formatTimelineTime(target.startMinutes * 60_000)}
          . Not live.
        </p>
      </div>
    );
  }
  if (current?.kind === 'live') {
    const { session } = current;
    return (
      <div className="flex flex-col gap-1">
        <span className="inline-flex w-fit items-center gap-2 rounded-full bg-flag-red px-3 py-1 text-caption font-bold text-on-accent uppercase">
          <Radio aria-hidden="true" className="size-4" />
          Live now
        </span>
        <p className="text-xl font-semibold">
          {session.race_name} – {session.name}
        </p>
        <p className="text-ink-300">{session.circuit_name}</p>
        {demoRecording && <p className="text-caption text-ink-300">Demo: recorded {demoRecording}</p>}
      </div>
    );
  }
  if (current?.kind === 'upcoming') {
    const { race } = current;
    const next = Object.values(race.sessions)
      .filter((s): s is string => typeof s === 'string')
      .find((s) => Date.parse(s) > Date.now());
    return (
      <div className="flex flex-col gap-1">
        <span className="text-caption font-semibold tracking-wide text-ink-300 uppercase">
          Next · Round {race.round}
        </span>
        <p className="text-xl font-semibold">{race.name}</p>
        <p className="text-ink-300">
          {race.location}
          {next ? ` · next session ${localTime(next)}` : ''}
        </p>
      </div>
    );
  }
  // SPEC §4: with no session found, a placeholder practice session and the fixed fallback race.
  const placeholder = createFallbackPracticeSession({ now: Date.now() });
  return (
    <div className="flex flex-col gap-1">
      <span className="text-caption font-semibold tracking-wide text-ink-300 uppercase">
        No session found
      </span>
      <p className="text-xl font-semibold">
        {placeholder.race_name} – {placeholder.session_name}
      </p>
      <p className="text-ink-300">{placeholder.circuit_name} (placeholder until the schedule loads)</p>
    </div>
  );
}

const sessionId = (session: { date_start: string; name: string }) => `${session.date_start}|${session.name}`;

const STATUS_TEXT: Record<LiveConnectionState['status'], string> = {
  disconnected: 'Disconnected',
  connecting: LIVE_TEXTS.connecting,
  connected: 'Connected',
};

/** The connection line: the status, and while connected what it follows, or that the server is gone. */
function ConnectionLine({ state }: { state: LiveConnectionState }) {
  const connected = state.status === 'connected';
  const lost = connected && state.link === 'lost';
  const dot = lost
    ? 'bg-flag-yellow'
    : connected
      ? 'bg-flag-green'
      : state.status === 'connecting'
        ? 'bg-flag-yellow'
        : 'bg-ink-400';
  return (
    <p role="status" aria-label="Connection" className="flex items-center gap-2 font-semibold">
      <span aria-hidden="true" className={`size-2.5 rounded-full ${dot}`} />
      {lost ? LIVE_TEXTS.reconnecting : STATUS_TEXT[state.status]}
      {connected && !lost && (state.target?.kind === 'replay' ? ' · Replay' : ' · Live')}
    </p>
  );
}

/** Said within LIVE_STREAM_SILENCE_MS of the server going, and again when it answers. */
function ConnectionNotice({ state }: { state: LiveConnectionState }) {
  if (state.status !== 'connected') return null;
  if (state.link === 'lost') {
    return (
      <p
        role="alert"
        className="flex gap-2 rounded-control border border-flag-yellow/60 bg-flag-yellow/10 p-3"
      >
        <WifiOff aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-flag-yellow" />
        {LIVE_TEXTS.connectionLost}
      </p>
    );
  }
  if (state.link === 'regained') {
    return (
      <p role="status" aria-label="Reconnected" className="flex items-center gap-2 text-ink-300">
        <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-flag-green" />
        {LIVE_TEXTS.reconnected}
      </p>
    );
  }
  return null;
}

/**
 * The Race Control panel's body (SPEC §2): the session, connect/disconnect, the current flag with
 * its sectors and cause, replays, test flags and the countdown. The connection itself (with the
 * title, accent and wake lock that follow its flag) lives in `LiveProvider`, above the screens.
 */
export function RaceControlBody() {
  const { user } = useAuth();
  const [settings] = useLocalSettings(user?.email);
  const lights = useLights();
  const current = useQuery({
    queryKey: CURRENT_SESSION_QUERY_KEY,
    queryFn: ({ signal }) => fetchCurrentSession(signal),
    refetchInterval: CURRENT_SESSION_REFRESH_MS,
  });
  const schedule = useSchedule();
  const { state, connect, disconnect, checkSessionEnd, wakeLockHeld, autoConnectTried } =
    useLiveConnectionContext();
  const connected = state.status === 'connected';
  // An online companion drives its lights by itself (perhaps every selected one): the page may still
  // follow the race on screen.
  const companionOnline = useCompanionDevices(user?.email)?.some((device) => device.online) ?? false;
  // The on-screen light is a light too (ticked by default): Connect needs somewhere to show the flags.
  const ready = lights.drivenProvider !== null || companionOnline || settings.screenLight;
  const liveSession = current.data?.kind === 'live' ? current.data.session : null;

  // DESIGN §6 auto-connect: once per live session while the dashboard is open and the lights are ready.
  // A followed live session that another has replaced (the weekend's next session, or the demo race
  // starting again) is over: auto-connect moves on to the new one. Replays are never interrupted.
  const { autoConnect } = settings;
  // A trial that has ended follows nothing: the Trial Expired dialog says so, and the server would
  // refuse the stream anyway.
  const trialEnded = user ? shouldShowTrialExpiredModal(user, { now: Date.now() }) : false;
  const liveId = liveSession ? sessionId(liveSession) : null;
  const followedId =
    state.target?.kind === 'live' && state.target.session ? sessionId(state.target.session) : null;
  useEffect(() => {
    if (!autoConnect || trialEnded || !liveSession || !liveId || !ready || lights.restoring) return;
    if (autoConnectTried.current === liveId) return;
    const replaced = state.status === 'connected' && followedId !== null && followedId !== liveId;
    if (state.status !== 'disconnected' && !replaced) return;
    autoConnectTried.current = liveId;
    connect({ kind: 'live', session: liveSession });
  }, [
    autoConnect,
    trialEnded,
    liveSession,
    liveId,
    followedId,
    ready,
    lights.restoring,
    state.status,
    connect,
    autoConnectTried,
  ]);

  // A connect that failed on something passing (a server restarting or too busy to answer as the page
  // opened) is tried again while auto-connect is on, later each time; a refusal (an ended trial, every
  // stream open) and a Disconnect are not.
  const retries = useRef(0);
  useEffect(() => {
    if (state.status === 'connected') retries.current = 0;
  }, [state.status]);
  const retryDue =
    autoConnect &&
    !trialEnded &&
    ready &&
    state.status === 'disconnected' &&
    state.retryable &&
    !!liveSession;
  useEffect(() => {
    if (!retryDue || !liveSession) return;
    const handle = setTimeout(() => {
      retries.current += 1;
      autoConnectTried.current = sessionId(liveSession);
      connect({ kind: 'live', session: liveSession });
    }, autoConnectRetryDelay(retries.current));
    return () => clearTimeout(handle);
  }, [retryDue, liveSession, state.failedAt, connect, autoConnectTried]);

  const connectLive = () => {
    if (liveId) autoConnectTried.current = liveId;
    connect({ kind: 'live', session: liveSession });
  };

  return (
    <div className="flex flex-col gap-5">
      <SessionSummary current={current.data} state={state} />
      <SessionCountdown races={schedule.data?.races} onTick={checkSessionEnd} />

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-3">
          {state.status === 'disconnected' ? (
            <button
              type="button"
              className={buttonClass('primary')}
              disabled={!ready || !liveSession}
              onClick={connectLive}
            >
              <PlugZap aria-hidden="true" className="size-5" />
              {ready ? LIVE_TEXTS.connect : LIVE_TEXTS.setupRequired}
            </button>
          ) : (
            <button type="button" className={buttonClass('danger')} onClick={disconnect}>
              <Plug aria-hidden="true" className="size-5" />
              {LIVE_TEXTS.disconnect}
            </button>
          )}
          <ReplayPicker disabled={!ready} onStarted={(replay) => connect({ kind: 'replay', ...replay })} />
          <ConnectionLine state={state} />
        </div>
        <ConnectionNotice state={state} />
        {!ready && (
          <p className="text-ink-300">
            {lights.restoring ? 'Restoring your light connections… ' : ''}
            {LIVE_TEXTS.setupHint}{' '}
            <Link to="/settings" className="font-semibold text-accent underline">
              Go to Settings
            </Link>
          </p>
        )}
        {ready && !liveSession && state.status === 'disconnected' && (
          <p className="text-ink-300">
            No session is live right now. Connect opens when one goes live; meanwhile, watch a replay.
          </p>
        )}
        {state.error && state.status === 'disconnected' && (
          <p className="text-danger">
            {LIVE_TEXTS.connectionFailedTitle}: {state.error}
            {retryDue && <span className="text-ink-300"> Auto-connect tries again in a few seconds.</span>}
          </p>
        )}
        {connected && state.transport === 'polling' && (
          <p className="text-caption text-ink-300">
            The live stream is unavailable here; checking for flag changes every few seconds instead.
          </p>
        )}
        {state.upstreamMessage && state.status !== 'disconnected' && (
          <p
            role="alert"
            className="flex gap-2 rounded-control border border-flag-yellow/60 bg-flag-yellow/10 p-3"
          >
            <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-flag-yellow" />
            {state.upstreamMessage}
          </p>
        )}
        {(liveSession || (connected && state.target?.kind === 'live')) && <FeedHealth />}
        <WakeLockNote held={wakeLockHeld} />
      </div>

      <FlagStatus state={state} />
      <SessionTimeline />
      <FlagHistory state={state} />
      <TestFlags />
    </div>
  );
}
