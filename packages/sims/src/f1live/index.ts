export { type FeedEvent, loadRecording as loadF1LiveRecording, type Recording } from './recording.js';
export { type RunningF1LiveSim, startF1LiveSim, type StartF1LiveSimOptions } from './server.js';
export { createF1LiveSim } from './sim.js';
export { F1LIVE_MAX_BUFFERED_BYTES, F1LIVE_MAX_MESSAGE_BYTES } from './frame-limits.js';
export {
  F1LIVE_DEMO_FIXTURE,
  F1LIVE_GATED_TOPICS,
  F1LIVE_HEARTBEAT_INTERVAL_MS,
  F1LIVE_MESSAGE_FAULTS,
  F1LIVE_MODES,
  F1LIVE_PING_INTERVAL_MS,
  F1LIVE_THROTTLE_RETRY_AFTER_S,
  type F1LiveMessageFault,
  type F1LiveMode,
  type F1LiveMirror,
  type F1LiveReplayOptions,
  type F1LiveSim,
  type F1LiveSimControl,
  type F1LiveSimOptions,
  type F1LiveSimState,
} from './types.js';
