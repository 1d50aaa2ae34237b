import { type Hub } from './hub.js';
import { type Playback } from './playback.js';
import { loadRecording } from './recording.js';
import { type SimState } from './state.js';
import { F1LIVE_MESSAGE_FAULTS, F1LIVE_MODES, type F1LiveSimControl } from './types.js';

function requireSpeed(speed: number): void {
  if (!Number.isFinite(speed) || speed < 0) throw new Error('speed must be a number ≥ 0');
}

/** The simulator's control (faults, replay, closes), behind `/_control` and used by tests directly. */
export function createF1LiveSimControl(state: SimState, playback: Playback, hub: Hub): F1LiveSimControl {
  const control: F1LiveSimControl = {
    state() {
      return {
        mode: state.mode,
        messageFault: state.messageFault,
        requireCookie: state.cookieRequired,
        replay: playback.view(),
        connections: hub.views(),
        counts: { ...state.counts },
      };
    },
    setMode(next) {
      if (!F1LIVE_MODES.includes(next)) throw new Error(`mode must be one of ${F1LIVE_MODES.join(', ')}`);
      const previous = state.mode;
      state.mode = next;
      if (next === 'down') hub.closeAll(null);
      // Like a network black hole that heals: what was held arrives at once.
      if (previous === 'stall' && next !== 'stall') hub.releaseStalled();
      if (next === 'garbage') {
        const feedTime = playback.feedTimeAt(playback.position());
        for (const conn of hub.connections.values()) if (conn.handshaken) hub.sendGarbage(conn, feedTime);
      }
    },
    setMessageFault(fault) {
      if (!F1LIVE_MESSAGE_FAULTS.includes(fault)) {
        throw new Error(`messageFault must be one of ${F1LIVE_MESSAGE_FAULTS.join(', ')}`);
      }
      state.messageFault = fault;
      // A held message is not lost: it goes out now, late.
      if (fault !== 'reorder') hub.releaseReordered();
    },
    requireCookie(required) {
      state.cookieRequired = required;
    },
    replay(o) {
      const next = loadRecording(o.fixture);
      const nextSpeed = o.speed ?? playback.speed;
      requireSpeed(nextSpeed);
      playback.restart(next, nextSpeed, Math.max(0, o.positionMs ?? 0));
      hub.closeAll({ error: 'a new session', allowReconnect: true });
      playback.schedule();
      return control.state().replay;
    },
    mirror(target) {
      if (target === null) {
        playback.clear();
        hub.closeAll({ error: 'no session', allowReconnect: true });
        playback.schedule();
        return;
      }
      requireSpeed(target.speed);
      if (playback.follow(target)) hub.closeAll({ error: 'a new session', allowReconnect: true });
      playback.schedule();
    },
    setSpeed(next) {
      requireSpeed(next);
      playback.setSpeed(next);
      playback.schedule();
    },
    closeAll(o = {}) {
      return hub.closeAll({
        error: o.error ?? 'Server is shutting down.',
        allowReconnect: o.allowReconnect ?? true,
      });
    },
    dropAll() {
      return hub.closeAll(null);
    },
    tick() {
      hub.broadcastDue();
      playback.schedule();
    },
  };
  return control;
}
