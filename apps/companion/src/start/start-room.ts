// The room's snapshot ("as it was"), attached to the session hooks: read before a followed session's
// first flag (and a light added mid-session before the flag reaches it), given back at its end or
// after a long green, as the fan chose (`room/room-snapshot.ts`); once its end is carried out, the
// session drives no light.
import type { CompanionOptions } from '../companion-types.js';
import type { SessionLights } from '../follow/session-lights.js';
import type { LightsHub } from '../lights/lights-hub.js';
import { createRoomSnapshots, type RoomSnapshots } from '../room/room-snapshot.js';
import type { Logger } from '../system/log.js';
import type { AccountPreferences } from './account-preferences.js';
import type { FollowState } from './follow-state.js';

export function startRoomSnapshots(deps: {
  options: Pick<CompanionOptions, 'dataDir'>;
  hub: LightsHub;
  log: Logger;
  preferences: Pick<AccountPreferences, 'follow'>;
  follow: FollowState;
  sessions: SessionLights;
}): RoomSnapshots {
  const { follow } = deps;
  const room = createRoomSnapshots({
    dir: deps.options.dataDir,
    hub: deps.hub,
    log: deps.log,
    sessionEnd: () => deps.preferences.follow().sessionEnd,
    following: () => {
      const { state, sessionKey } = follow.status;
      const live = state === 'waiting' ? false : state === 'following' || state === 'polling' ? true : null;
      return { sessionKey, live };
    },
    sessionOver: (sessionKey) => deps.sessions.sessionOver(sessionKey),
  });
  // A light ticked (or a device added) mid-session is read before the session's flag reaches it.
  deps.hub.readBeforeJoining((joined) => room.readJoining(joined));
  deps.sessions.setHooks({
    beforeFirstChange: (sessionKey) => room.take(sessionKey),
    sessionEnded: (sessionKey, action) => room.sessionEnded(sessionKey, action),
    giveBack: (sessionKey) => room.giveBack(sessionKey),
  });
  return room;
}
