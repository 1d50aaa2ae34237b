export { type GoveeDeviceView, type GoveeSimControl } from './control.js';
export { type RunningGoveeSim, startGoveeSim } from './server.js';
export { createGoveeSim, type GoveeSim } from './sim.js';
export {
  DEMO_GOVEE_API_KEY,
  GOVEE_DEMO_DEVICE_COUNT,
  GOVEE_LIST_PER_MINUTE,
  GOVEE_RATE_LIMITS,
  goveeKeyId,
  type GoveeFault,
  type GoveeLoggedRequest,
  type GoveeSimOptions,
} from './state.js';
