import {
  createFallbackPracticeSession,
  formatTimelineTime,
  shouldShowTrialExpiredModal,
} from '@flaglight/core';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, History, Plug, PlugZap, Radio, WifiOff } from 'lucide-react';
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
import { SessionNotFollowedNote } from './SessionNotFollowedNote';
import { SessionTimeline } from './SessionTimeline';
import { TestFlags } from './TestFlags';
import { useAutoConnect } from './use-auto-connect';
import type { LiveConnectionState } from './use-live-connection';

export const CURRENT_SESSION_QUERY_KEY = ['f1', 'current'] as const;
/** How often the dashboard asks whether a session went live (the server caches that answer 30 s). */
export const CURRENT_SESSION_REFRESH_MS = 30_000;
export { autoConnectRetryDelay } from './use-auto-connect';

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

/** What the page should know about connecting: setup missing, nothing live, a failure, polling, upstream trouble. */
function ConnectionHints(props: {
  state: LiveConnectionState;
  ready: boolean;
  restoring: boolean;
  hasLiveSession: boolean;
  retryDue: boolean;
}) {
  const { state, ready, restoring, hasLiveSession, retryDue } = props;
  return (
    <>
      {!ready && (
        <p className="text-ink-300">
          {restoring ? 'Restoring your light connections… ' : ''}
          {LIVE_TEXTS.setupHint}{' '}
          <Link to="/settings" className="font-semibold text-accent underline">
            Go to Settings
          </Link>
        </p>
      )}
      {ready && !hasLiveSession && state.status === 'disconnected' && (
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
      {state.status === 'connected' && state.transport === 'polling' && (
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
    </>
  );
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

  // A trial that has ended follows nothing: the Trial Expired dialog says so, and the server would
  // refuse the stream anyway.
  const trialEnded = user ? shouldShowTrialExpiredModal(user, { now: Date.now() }) : false;
  const { retryDue, connectLive } = useAutoConnect({
    autoConnect: settings.autoConnect,
    trialEnded,
    liveSession,
    ready,
    restoring: lights.restoring,
    live: { state, connect, autoConnectTried },
  });

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
        <SessionNotFollowedNote state={state} />
        <ConnectionHints
          state={state}
          ready={ready}
          restoring={lights.restoring}
          hasLiveSession={!!liveSession}
          retryDue={retryDue}
        />
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
