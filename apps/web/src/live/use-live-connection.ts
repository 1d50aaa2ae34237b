import {
  FASTEST_LAP_SHOW_MS,
  getEffectiveDelayMs,
  isMomentary,
  type CurrentLiveSessionData,
} from '@flaglight/core';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type MutableRefObject,
  type SetStateAction,
} from 'react';
import type { FlagState } from '../flags/flag-styles';
import { useLights, type LightsApi } from '../lights/lights-context';
import { toast } from '../toasts/toast';
import { setFlagAccent } from '../ui/flag-accent';
import { toDisplayFlag } from './display-flag';
import { describeTargetKey, describeTargetSession } from './followed-session';
import type { FlagEvent, StatusEventData } from './live-api';
import {
  connectingState,
  disconnectedState,
  failedState,
  HISTORY_LENGTH,
  INITIAL_CONNECTION_STATE,
  RECONNECTED_NOTICE_MS,
  TIMELINE_FLAGS_LENGTH,
  type LiveConnectionState,
  type LiveTarget,
  type ShownFlag,
} from './live-connection-state';
import {
  isRefusalToShow,
  startLiveFeed,
  type LiveFeed,
  type LiveFeedDeps,
  type LiveFeedHandlers,
} from './live-feed';
import { LIVE_TEXTS } from './live-texts';
import { useSessionTracking } from './use-session-tracking';

export {
  HISTORY_LENGTH,
  RECONNECTED_NOTICE_MS,
  TIMELINE_FLAGS_LENGTH,
  type ConnectionLink,
  type ConnectionStatus,
  type LiveConnectionState,
  type LiveTarget,
  type PendingChange,
  type ShownFlag,
} from './live-connection-state';

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

/** Timeouts that a disconnect (or leaving the page) cancels all at once. */
function useTimers() {
  const timersRef = useRef(new Set<ReturnType<typeof setTimeout>>());

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

  return { after, clearTimers };
}

/**
 * Flags as they arrive: on the lights at once, timed for the broadcast delay; on the panel when
 * that delay has passed (pending until then). A fastest lap shows for a moment beside the flag.
 */
function useDelayedFlags({
  setState,
  after,
  delayRef,
  lightsRef,
  endTrackingOnFlag,
}: {
  setState: Dispatch<SetStateAction<LiveConnectionState>>;
  after: (ms: number, fn: () => void) => void;
  delayRef: MutableRefObject<number>;
  lightsRef: MutableRefObject<LightsApi>;
  endTrackingOnFlag: (state: FlagEvent['data']['state']) => void;
}) {
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
        ...(isMomentary(flag)
          ? { momentary: shown }
          : { shown, flags: [...current.flags, shown].slice(-TIMELINE_FLAGS_LENGTH) }),
      }));
      if (isMomentary(flag)) {
        after(FASTEST_LAP_SHOW_MS, () =>
          setState((current) => (current.momentary === shown ? { ...current, momentary: null } : current)),
        );
      }
      endTrackingOnFlag(event.data.state);
    },
    [after, endTrackingOnFlag, setState],
  );

  return useCallback(
    (event: FlagEvent) => {
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
    [after, apply, delayRef, lightsRef, setState],
  );
}

interface ConnectionHandlerDeps {
  target: LiveTarget;
  setState: Dispatch<SetStateAction<LiveConnectionState>>;
  reportLink: (change: 'lost' | 'regained' | 'connected') => void;
  track: (session: CurrentLiveSessionData, sessionKey: number) => void;
  receiveFlag: (event: FlagEvent) => void;
  /** The feed stopped by itself: forget it, its timers and the lights' pending changes. */
  dropFeed: () => void;
  onPreferencesRef: MutableRefObject<((data: unknown) => void) | undefined>;
  onDevicesRef: MutableRefObject<(() => void) | undefined>;
}

/** What one connect's feed reports, turned into the connection's state. */
function createConnectionHandlers(deps: ConnectionHandlerDeps): LiveFeedHandlers {
  const { target, setState, reportLink } = deps;
  return {
    onConnected({ sessionKey, transport }) {
      setState((current) => ({ ...current, status: 'connected', sessionKey, transport }));
      reportLink('connected');
      if (target.kind === 'live' && target.session) deps.track(target.session, sessionKey);
    },
    onFlag(event) {
      deps.receiveFlag(event);
    },
    onStatus(status: StatusEventData) {
      setState((current) => ({
        ...current,
        upstreamMessage: status.upstream === 'ok' || status.upstream === 'starting' ? null : status.message,
      }));
    },
    onTransport(transport) {
      setState((current) => ({ ...current, transport }));
    },
    onReachable(reachable) {
      reportLink(reachable ? 'regained' : 'lost');
    },
    onPreferences(data) {
      deps.onPreferencesRef.current?.(data);
    },
    onDevices() {
      deps.onDevicesRef.current?.();
    },
    onFailed(error) {
      deps.dropFeed();
      // "Please try again" would not help an ended trial or an account with every stream open:
      // those get the server's own words.
      toast.error(LIVE_TEXTS.connectionFailedTitle, {
        message: isRefusalToShow(error) ? error.message : LIVE_TEXTS.connectionFailedMessage,
      });
      setState((current) => failedState(current, error));
    },
  };
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
  const [state, setState] = useState<LiveConnectionState>(INITIAL_CONNECTION_STATE);
  const feedRef = useRef<LiveFeed | null>(null);
  const lightsRef = useRef(lights);
  lightsRef.current = lights;
  const delayRef = useRef(0);
  delayRef.current = getEffectiveDelayMs({ seconds: delaySeconds, enabled: delayEnabled });
  const feedDepsRef = useRef(feedDeps);
  feedDepsRef.current = feedDeps;

  const { after, clearTimers } = useTimers();
  const reportLink = useLinkReports(setState, after);
  const { track, endTracking, forgetTracking, endTrackingOnFlag, checkSessionEnd } = useSessionTracking();
  const receiveFlag = useDelayedFlags({ setState, after, delayRef, lightsRef, endTrackingOnFlag });

  const dropFeed = useCallback(() => {
    feedRef.current = null;
    clearTimers();
    lightsRef.current.cancelPending();
  }, [clearTimers]);

  const stopFeed = useCallback(() => {
    feedRef.current?.stop();
    dropFeed();
  }, [dropFeed]);

  const disconnect = useCallback(() => {
    stopFeed();
    lightsRef.current.followSession(null);
    forgetTracking();
    setState(disconnectedState);
  }, [forgetTracking, stopFeed]);

  const connect = useCallback(
    (target: LiveTarget, options: { resume?: boolean } = {}) => {
      stopFeed();
      forgetTracking();
      const now = Date.now();
      // Before the first flag: a session whose kind the fan does not follow drives no light.
      lightsRef.current.followSession(describeTargetSession(target) ?? {}, describeTargetKey(target));
      // SPEC §4: green at once; the real initial state follows after the delay. A replay moved to
      // another minute (`resume`) keeps showing its flag instead, so the lights do not blink green.
      if (!options.resume) lightsRef.current.playFlag('green');
      setState((current) => connectingState(current, target, now, options.resume === true));
      const requested = target.kind === 'replay' ? target.sessionKey : undefined;
      const handlers = createConnectionHandlers({
        target,
        setState,
        reportLink,
        track,
        receiveFlag,
        dropFeed,
        onPreferencesRef,
        onDevicesRef,
      });
      const feed = startLiveFeed(requested, handlers, feedDepsRef.current);
      feedRef.current = feed;
    },
    [dropFeed, forgetTracking, receiveFlag, reportLink, stopFeed, track],
  );

  const connected = state.status === 'connected';
  const accentFlag = state.momentary?.flag ?? state.shown.flag;
  useEffect(() => {
    setFlagAccent(connected ? accentFlag : 'green');
  }, [connected, accentFlag]);

  // Leaving the dashboard ends the connection like a disconnect.
  useEffect(
    () => () => {
      stopFeed();
      endTracking();
      setFlagAccent('green');
    },
    [endTracking, stopFeed],
  );

  return { state, connect, disconnect, checkSessionEnd, delayMs: delayRef.current };
}
