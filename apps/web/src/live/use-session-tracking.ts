import { shouldEndTrackedSession, type CurrentLiveSessionData, type TrackedSession } from '@flaglight/core';
import { useCallback, useRef } from 'react';
import { endTrackedSession, trackSession, type FlagEvent } from './live-api';

interface Tracked {
  session: TrackedSession;
  sessionId: Promise<string | null>;
  ended: boolean;
}

/**
 * The live session a connection follows, recorded on the server as tracked (DESIGN §6) and ended
 * once: on a checkered flag of a race, when its end time passes, or when the connection ends.
 */
export function useSessionTracking() {
  const trackedRef = useRef<Tracked | null>(null);

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

  /** A new connect or a disconnect: the session followed so far ends and is forgotten. */
  const forgetTracking = useCallback(() => {
    endTracking();
    trackedRef.current = null;
  }, [endTracking]);

  const track = useCallback((session: CurrentLiveSessionData, sessionKey: number) => {
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
  }, []);

  /** A flag shown on the panel: a race's checkered flag (or a passed end time) ends the session. */
  const endTrackingOnFlag = useCallback(
    (state: FlagEvent['data']['state']) => {
      const tracked = trackedRef.current;
      if (tracked && shouldEndTrackedSession(tracked.session, { now: Date.now(), state })) {
        endTracking();
      }
    },
    [endTracking],
  );

  // The tracked session also ends when its end time passes (DESIGN §6), checked as the countdown ticks.
  const checkSessionEnd = useCallback(() => {
    const tracked = trackedRef.current;
    if (tracked && shouldEndTrackedSession(tracked.session, { now: Date.now() })) endTracking();
  }, [endTracking]);

  return { track, endTracking, forgetTracking, endTrackingOnFlag, checkSessionEnd };
}
