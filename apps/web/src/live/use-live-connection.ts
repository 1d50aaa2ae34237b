import {
  FASTEST_LAP_SHOW_MS,
  type FlagTimeline,
  getEffectiveDelayMs,
  shouldEndTrackedSession,
  type CurrentLiveSessionData,
  type TrackedSession,
} from '@flaglight/core';
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { FlagState } from '../flags/flag-styles';
import { useLights } from '../lights/lights-context';
import { toast } from '../toasts/toast';
import { setFlagAccent } from '../ui/flag-accent';
import { toDisplayFlag } from './display-flag';
import { endTrackedSession, trackSession, type FlagEvent, type StatusEventData } from './live-api';
import {
  isFinalRefusal,
  isRefusalToShow,
  startLiveFeed,
  type FeedTransport,
  type LiveFeed,
  type LiveFeedDeps,
} from './live-feed';
import { LIVE_TEXTS } from './live-texts';

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected';

/**
 * While connected: whether the server is heard. `lost`: the stream broke or fell silent (or polls
 * go unanswered) and the feed is trying again; `regained`: it came back a moment ago (the page says
 * so for RECONNECTED_NOTICE_MS); `ok` otherwise.
 */
export type ConnectionLink = 'ok' | 'lost' | 'regained';

/** How long "Connected again" shows after the server answers again. */
export const RECONNECTED_NOTICE_MS = 6_000;

/** What to follow: the live session, or a replay started through the server. */
export type LiveTarget =
  | { kind: 'live'; session: CurrentLiveSessionData | null }
  | {
      kind: 'replay';
      sessionKey: number;
      title: string;
      speed: number;
      startMinutes: number;
      /** The recording, to start it again at another minute (a jump along its timeline). */
      source?: 'bundled' | 'openf1';
      id?: string;
      /** The whole recording's flags, on the replay's clock (bundled recordings). */
      timeline?: FlagTimeline;
    };

export interface ShownFlag {
  flag: FlagState;
  activeSectors: number[];
  cause: { date: string; message: string } | null;
  /** Epoch ms it took effect on the panel (and on the lights). */
  at: number;
}

export interface PendingChange {
  id: number;
  flag: FlagState;
  at: number;
}

export interface LiveConnectionState {
  status: ConnectionStatus;
  link: ConnectionLink;
  target: LiveTarget | null;
  sessionKey: number | null;
  transport: FeedTransport | null;
  shown: ShownFlag;
  /** A fastest lap shows for a moment beside the lasting flag. */
  momentary: ShownFlag | null;
  pending: PendingChange[];
  /** SPEC §8 text while the server's upstream is failing. */
  upstreamMessage: string | null;
  /** Recent changes, newest first. */
  history: ShownFlag[];
  /** Every lasting flag shown since connecting, oldest first: the session's timeline grows from it. */
  flags: ShownFlag[];
  /** Epoch ms of the last connect (the timeline's start), or null while disconnected. */
  connectedAt: number | null;
  /** Why the last connect failed (shown under the button). */
  error: string | null;
  /** The last connect failed on something passing (no answer, a server error), not on a refusal. */
  retryable: boolean;
  /** Epoch ms of the last failed connect: each failure is its own, even with the same words. */
  failedAt: number | null;
}

export const HISTORY_LENGTH = 12;
/** Far more changes than any session has (a race has ≈ 50): only a runaway feed reaches it. */
export const TIMELINE_FLAGS_LENGTH = 2_000;

const GREEN = (at: number): ShownFlag => ({ flag: 'green', activeSectors: [], cause: null, at });

const INITIAL: LiveConnectionState = {
  status: 'disconnected',
  link: 'ok',
  target: null,
  sessionKey: null,
  transport: null,
  shown: GREEN(0),
  momentary: null,
  pending: [],
  upstreamMessage: null,
  history: [],
  flags: [],
  connectedAt: null,
  error: null,
  retryable: false,
  failedAt: null,
};

interface Tracked {
  session: TrackedSession;
  sessionId: Promise<string | null>;
  ended: boolean;
}

export interface LiveConnectionOptions {
  delaySeconds: number;
  delayEnabled: boolean;
  /** For tests: the feed's outside world. */
  feedDeps?: LiveFeedDeps;
  /** The stream's `preferences` events (the account's settings changed elsewhere). */
  onPreferences?: (data: unknown) => void;
  /** The stream's `devices` events (a companion's lights or presence changed). */
  onDevices?: () => void;
}

/**
 * The `link` of a connection: `lost` when the feed says the server is out of reach, `regained` when
 * it answers again (or a connect made meanwhile connects), back to `ok` RECONNECTED_NOTICE_MS later.
 */
function useLinkReports(
  setState: Dispatch<SetStateAction<LiveConnectionState>>,
  after: (ms: number, fn: () => void) => void,
) {
  // Which "Connected again" is showing: a notice's end must not cut a later one short.
  const noticeRef = useRef(0);
  return useCallback(
    (change: 'lost' | 'regained' | 'connected') => {
      setState((current) => {
        const link = change === 'connected' ? (current.link === 'lost' ? 'regained' : current.link) : change;
        return link === current.link ? current : { ...current, link };
      });
      if (change === 'lost') return;
      const notice = ++noticeRef.current;
      after(RECONNECTED_NOTICE_MS, () => {
        if (noticeRef.current !== notice) return;
        setState((current) => (current.link === 'regained' ? { ...current, link: 'ok' } : current));
      });
    },
    [after, setState],
  );
}

/**
 * The live connection of SPEC §4: disconnected → connecting → connected. Green shows at once on
 * connect; every change (the initial state too) is held back by the broadcast delay, on the lights
 * and on the panel alike, so both match the TV. Disconnect closes the stream, ends tracking, resets
 * to green and drops pending changes.
 */
export function useLiveConnection({
  delaySeconds,
  delayEnabled,
  feedDeps,
  onPreferences,
  onDevices,
}: LiveConnectionOptions) {
  const onPreferencesRef = useRef(onPreferences);
  onPreferencesRef.current = onPreferences;
  const onDevicesRef = useRef(onDevices);
  onDevicesRef.current = onDevices;
  const lights = useLights();
  const [state, setState] = useState<LiveConnectionState>(INITIAL);
  const feedRef = useRef<LiveFeed | null>(null);
  const timersRef = useRef(new Set<ReturnType<typeof setTimeout>>());
  const trackedRef = useRef<Tracked | null>(null);
  const lightsRef = useRef(lights);
  lightsRef.current = lights;
  const delayRef = useRef(0);
  delayRef.current = getEffectiveDelayMs({ seconds: delaySeconds, enabled: delayEnabled });
  const feedDepsRef = useRef(feedDeps);
  feedDepsRef.current = feedDeps;

  const clearTimers = useCallback(() => {
    for (const handle of timersRef.current) clearTimeout(handle);
    timersRef.current.clear();
  }, []);

  const after = useCallback((ms: number, fn: () => void) => {
    const handle = setTimeout(() => {
      timersRef.current.delete(handle);
      fn();
    }, ms);
    timersRef.current.add(handle);
  }, []);

  const reportLink = useLinkReports(setState, after);

  const endTracking = useCallback(() => {
    const tracked = trackedRef.current;
    if (!tracked || tracked.ended) return;
    tracked.ended = true;
    void tracked.sessionId
      .then((id) => (id ? endTrackedSession(id) : undefined))
      .catch(() => {
        // Best effort: the server also ends sessions whose end date has passed.
      });
  }, []);

  const stopFeed = useCallback(() => {
    feedRef.current?.stop();
    feedRef.current = null;
    clearTimers();
    lightsRef.current.cancelPending();
  }, [clearTimers]);

  const disconnect = useCallback(() => {
    stopFeed();
    endTracking();
    trackedRef.current = null;
    setState((current) => ({ ...INITIAL, history: current.history, shown: GREEN(Date.now()) }));
  }, [endTracking, stopFeed]);

  const apply = useCallback(
    (event: FlagEvent, flag: FlagState, at: number) => {
      const shown: ShownFlag = {
        flag,
        activeSectors: event.data.activeSectors,
        cause: event.data.cause,
        at,
      };
      setState((current) => ({
        ...current,
        pending: current.pending.filter((p) => p.id !== event.id),
        history: [shown, ...current.history].slice(0, HISTORY_LENGTH),
        ...(flag === 'fastest_lap'
          ? { momentary: shown }
          : { shown, flags: [...current.flags, shown].slice(-TIMELINE_FLAGS_LENGTH) }),
      }));
      if (flag === 'fastest_lap') {
        after(FASTEST_LAP_SHOW_MS, () =>
          setState((current) => (current.momentary === shown ? { ...current, momentary: null } : current)),
        );
      }
      const tracked = trackedRef.current;
      if (tracked && shouldEndTrackedSession(tracked.session, { now: Date.now(), state: event.data.state })) {
        endTracking();
      }
    },
    [after, endTracking],
  );

  const connect = useCallback(
    (target: LiveTarget, options: { resume?: boolean } = {}) => {
      stopFeed();
      endTracking();
      trackedRef.current = null;
      const now = Date.now();
      // SPEC §4: green at once; the real initial state follows after the delay. A replay moved to
      // another minute (`resume`) keeps showing its flag instead, so the lights do not blink green.
      if (!options.resume) lightsRef.current.playFlag('green');
      setState((current) => ({
        ...INITIAL,
        history: current.history,
        status: 'connecting',
        // A connect while the server was out of reach (auto-connect moving to the session the
        // restarted server follows) says "Connected again" too once it is connected.
        link: current.link === 'ok' ? 'ok' : 'lost',
        target,
        shown: options.resume ? current.shown : GREEN(now),
        connectedAt: now,
      }));
      const requested = target.kind === 'replay' ? target.sessionKey : undefined;
      const feed = startLiveFeed(
        requested,
        {
          onConnected({ sessionKey, transport }) {
            setState((current) => ({ ...current, status: 'connected', sessionKey, transport }));
            reportLink('connected');
            if (target.kind === 'live' && target.session) {
              const { session } = target;
              trackedRef.current = {
                session: { sessionName: session.name, sessionType: session.type, dateEnd: session.date_end },
                ended: false,
                sessionId: trackSession({
                  session_key: sessionKey,
                  session_name: session.name,
                  session_type: session.type,
                  race_name: session.race_name,
                  circuit_name: session.circuit_name,
                  date_start: session.date_start,
                  date_end: session.date_end,
                }).catch(() => null),
              };
            }
          },
          onFlag(event) {
            const receivedAt = Date.now();
            const delayMs = delayRef.current;
            const flag = toDisplayFlag(event.data.state, event.data.cause.message, event.data.safetyCar);
            const at = receivedAt + delayMs;
            lightsRef.current.playFlag(flag, { atEpochMs: at });
            if (delayMs === 0) {
              apply(event, flag, at);
              return;
            }
            setState((current) => ({
              ...current,
              pending: [...current.pending, { id: event.id, flag, at }],
            }));
            after(delayMs, () => apply(event, flag, at));
          },
          onStatus(status: StatusEventData) {
            setState((current) => ({
              ...current,
              upstreamMessage:
                status.upstream === 'ok' || status.upstream === 'starting' ? null : status.message,
            }));
          },
          onTransport(transport) {
            setState((current) => ({ ...current, transport }));
          },
          onReachable(reachable) {
            reportLink(reachable ? 'regained' : 'lost');
          },
          onPreferences(data) {
            onPreferencesRef.current?.(data);
          },
          onDevices() {
            onDevicesRef.current?.();
          },
          onFailed(error) {
            feedRef.current = null;
            clearTimers();
            lightsRef.current.cancelPending();
            // "Please try again" would not help an ended trial or an account with every stream open:
            // those get the server's own words.
            toast.error(LIVE_TEXTS.connectionFailedTitle, {
              message: isRefusalToShow(error) ? error.message : LIVE_TEXTS.connectionFailedMessage,
            });
            setState((current) => ({
              ...INITIAL,
              history: current.history,
              shown: GREEN(Date.now()),
              error: error.message,
              retryable: !isFinalRefusal(error),
              failedAt: Date.now(),
            }));
          },
        },
        feedDepsRef.current,
      );
      feedRef.current = feed;
    },
    [after, apply, clearTimers, endTracking, reportLink, stopFeed],
  );

  // The tracked session also ends when its end time passes (DESIGN §6), checked as the countdown ticks.
  const checkSessionEnd = useCallback(() => {
    const tracked = trackedRef.current;
    if (tracked && shouldEndTrackedSession(tracked.session, { now: Date.now() })) endTracking();
  }, [endTracking]);

  const connected = state.status === 'connected';
  const accentFlag = state.momentary?.flag ?? state.shown.flag;
  useEffect(() => {
    setFlagAccent(connected ? accentFlag : 'green');
  }, [connected, accentFlag]);

  // Leaving the dashboard ends the connection like a disconnect.
  useEffect(
    () => () => {
      feedRef.current?.stop();
      feedRef.current = null;
      for (const handle of timersRef.current) clearTimeout(handle);
      timersRef.current.clear();
      lightsRef.current.cancelPending();
      endTracking();
      setFlagAccent('green');
    },
    [endTracking],
  );

  return { state, connect, disconnect, checkSessionEnd, delayMs: delayRef.current };
}
