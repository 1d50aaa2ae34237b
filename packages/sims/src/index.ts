export { type Clock, formatOpenF1Date, systemClock } from './shared/clock.js';
export { type ActiveFault, FAULT_KINDS, type FaultKind, type FaultSpec } from './shared/faults.js';
export { type LoggedRequest } from './shared/request-log.js';
export { type MeetingRow, type SessionRow } from './openf1/catalog.js';
export { parseFilterQuery, parseOpenF1Date } from './openf1/filters.js';
export { RACE_CONTROL_TOPIC } from './openf1/push.js';
export { type ReplayInfo, type ReplayOptions } from './openf1/replay.js';
export {
  createOpenF1Sim,
  DEMO_REPLAY_FIXTURE,
  FIRST_REPLAY_KEY,
  NO_RESULTS_DETAIL,
  type OpenF1Sim,
  type OpenF1SimControl,
  type OpenF1SimOptions,
  RATE_LIMIT_ERROR,
  SESSION_LOCKED_DETAIL,
} from './openf1/sim.js';
export { type RunningOpenF1Sim, startOpenF1Sim, type StartOpenF1SimOptions } from './openf1/server.js';
export { DEFAULT_OPENF1_USERS, TOKEN_LIFETIME_SECONDS } from './openf1/tokens.js';
export {
  createJolpicaSim,
  JOLPICA_THROTTLED_DETAIL,
  type JolpicaSim,
  type JolpicaSimControl,
  type JolpicaSimOptions,
  RACE_RESULTS_AFTER_MS,
  type RunningJolpicaSim,
  startJolpicaSim,
  type StartJolpicaSimOptions,
} from './jolpica/sim.js';
export {
  createTurnstileSim,
  DEMO_TURNSTILE_SECRET_KEY,
  DEMO_TURNSTILE_SITE_KEY,
  startTurnstileSim,
  TURNSTILE_TOKEN_TTL_MS,
  type TurnstileErrorCode,
  type TurnstileSimControl,
} from './turnstile/index.js';
export { type CaughtMail, startMailCatcher, startMailCatcherServer } from './mail/index.js';
export {
  type CheckoutSession,
  createCheckoutSim,
  DEMO_STRIPE_SECRET_KEY,
  DEMO_STRIPE_WEBHOOK_SECRET,
  parseStripeForm,
  signStripePayload,
  startCheckoutSim,
  type WebhookSink,
} from './checkout/index.js';
export { hsbkToHex, LIFX_COLOR_NAMES, parseLifxColor, type HsbkPatch } from './lifx/colors.js';
export { type LifxBulbView, type LifxSimControl } from './lifx/control.js';
export { type RunningLifxSim, startLifxSim } from './lifx/server.js';
export { createLifxSim, type LifxSim } from './lifx/sim.js';
export {
  DEMO_LIFX_TOKEN,
  LIFX_DEMO_BULB_COUNT,
  LIFX_RATE_LIMIT,
  type LifxFailure,
  type LifxLoggedRequest,
  type LifxSimOptions,
} from './lifx/state.js';
export { renderLightsPage } from './lights-page/page.js';
export { type HueLightView, type HueSimControl } from './hue/control.js';
export { type RunningHueSim, startHueSim } from './hue/server.js';
export { createHueSim, type HueSim } from './hue/sim.js';
export {
  DEMO_HUE_APPLICATION_KEY,
  DEMO_HUE_CLIENT_ID,
  DEMO_HUE_CLIENT_SECRET,
  HUE_ACCESS_TOKEN_TTL_S,
  HUE_DEMO_LIGHT_COUNT,
  HUE_LINK_BUTTON_WINDOW_MS,
  type HueLoggedRequest,
  type HueSimOptions,
} from './hue/state.js';
export {
  bridgeIdFromMac,
  type LocalHueBridge,
  type LocalHueBridgeView,
  type LocalHueCommand,
  LOCAL_HUE_LIGHT_COMMANDS_PER_S,
  LOCAL_HUE_LINK_WINDOW_MS,
  type LocalHueSignal,
  startLocalHueBridge,
} from './lan/hue-bridge.js';
export {
  LAN_SIM_HOST,
  LIFX_LAN_DEMO_BULB_COUNT,
  type LifxBulbFault,
  type LifxReceived,
  type LifxWaveformRecord,
  startVirtualLifxBulbs,
  type VirtualLifxBulbs,
  type VirtualLifxBulbView,
} from './lan/lifx-bulbs.js';
export { findFreeTcpPort } from './free-port.js';
export {
  findFreeUdpPort,
  GOVEE_LAN_DEMO_DEVICE_COUNT,
  type GoveeDeviceFault,
  type GoveeReceived,
  startVirtualGoveeDevices,
  type VirtualGoveeDevices,
  type VirtualGoveeDeviceView,
} from './lan/govee-lan.js';
export {
  type LanSim,
  type LanSimOptions,
  type LanSimState,
  NANOLEAF_DEMO_DEVICES,
  startLanSim,
} from './lan/sim.js';
export { type RunningLanSim, startLanSimServer } from './lan/server.js';
export {
  NANOLEAF_SIM_PAIRING_WINDOW_MS,
  type NanoleafSimDevice,
  type NanoleafSimEffect,
  type NanoleafSimFault,
  type NanoleafSimOptions,
  type NanoleafSimRequest,
  type NanoleafSimView,
  parseAnimData,
  startNanoleafSim,
} from './lan/nanoleaf.js';
export {
  HOME_ASSISTANT_DEMO_LIGHTS,
  HOME_ASSISTANT_DEMO_TOKEN,
  HOME_ASSISTANT_DEMO_UNAVAILABLE,
  type HomeAssistantSim,
  type HomeAssistantSimFault,
  type HomeAssistantSimLightView,
  type HomeAssistantSimOptions,
  type HomeAssistantSimRequest,
  type HomeAssistantSimView,
  startHomeAssistantSim,
} from './lan/home-assistant.js';
export { HA_FEATURE, type HaColorMode, type HaSimLightSpec } from './lan/home-assistant-lights.js';
export {
  startWledSim,
  type WledSimDevice,
  type WledSimFault,
  type WledSimOptions,
  type WledSimRequest,
  type WledSimSegment,
  type WledSimState,
  type WledSimView,
} from './lan/wled.js';
export { WLED_DEMO_DEVICES } from './lan/wled-control.js';
export { WLED_SIM_EFFECTS, WLED_SIM_EFFECTS_NO_FLASH } from './lan/wled-effects.js';
export * from './f1live/index.js';
export * from './govee/index.js';
