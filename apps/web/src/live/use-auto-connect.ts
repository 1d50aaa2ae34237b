import type { CurrentLiveSessionData } from '@flaglight/core';
import { useEffect, useRef } from 'react';
import type { LiveConnectionApi } from './live-connection-context';

/** Auto-connect's wait before trying a failed connect again: 5, 10, 20, 40, 60, 60 … s. */
export function autoConnectRetryDelay(retries: number): number {
  return Math.min(60_000, 5_000 * 2 ** retries);
}

const sessionId = (session: { date_start: string; name: string }) => `${session.date_start}|${session.name}`;

export interface AutoConnectInputs {
  /** The user's auto-connect setting. */
  autoConnect: boolean;
  /** An ended trial follows nothing: the Trial Expired dialog says so. */
  trialEnded: boolean;
  liveSession: CurrentLiveSessionData | null;
  /** Somewhere to show the flags: a light, an online companion or the on-screen light. */
  ready: boolean;
  /** The lights are still being reconnected after the page loaded. */
  restoring: boolean;
  live: Pick<LiveConnectionApi, 'state' | 'connect' | 'autoConnectTried'>;
}

/**
 * DESIGN §6 auto-connect: once per live session while the dashboard is open and the lights are
 * ready, moving on when the followed live session is replaced, and trying a failed connect again
 * with back-off. Returns whether such a retry is due, and the Connect button's action.
 */
export function useAutoConnect(inputs: AutoConnectInputs): { retryDue: boolean; connectLive: () => void } {
  const { autoConnect, trialEnded, liveSession, ready, restoring } = inputs;
  const { state, connect, autoConnectTried } = inputs.live;
  // A followed live session that another has replaced (the weekend's next session, or the demo race
  // starting again) is over: auto-connect moves on to the new one. Replays are never interrupted.
  const liveId = liveSession ? sessionId(liveSession) : null;
  const followedId =
    state.target?.kind === 'live' && state.target.session ? sessionId(state.target.session) : null;
  useEffect(() => {
    if (!autoConnect || trialEnded || !liveSession || !liveId || !ready || restoring) return;
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
    restoring,
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
  return { retryDue, connectLive };
}
