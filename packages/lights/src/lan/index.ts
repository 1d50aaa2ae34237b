// The desktop companion's LAN drivers (Node only): `@flaglight/lights/lan`. The browser entry
// (`@flaglight/lights`) never imports this folder.
export * from './lifx/driver.js';
export { normaliseLifxId } from './lifx/bulb.js';
export { LIFX_LAN_WHITE_KELVIN, stateWrites, strobeWrites, toLanHsbk } from './lifx/messages.js';
export * from './hue/bridge.js';
export * from './hue/driver.js';
export * from './hue/mdns.js';
export * from './hue/transport.js';
export { hueRestoreCommand, savedHueLight } from './hue/room.js';
export { HUE_CERTIFICATE_CHANGED, HUE_LOCAL_TIMEOUT_MS, type HueBridgePin } from './hue/https.js';
export * from './govee/driver.js';
export {
  GOVEE_LAN_DEFAULT_PORTS,
  GOVEE_LAN_MULTICAST_GROUP,
  lookCommands,
  toGoveeLook,
  toGoveeRgb,
  type GoveeLook,
  type GoveeRgb,
  type GoveeStatus,
} from './govee/messages.js';
export * from './nanoleaf/driver.js';
export * from './nanoleaf/effects.js';
export * from './nanoleaf/http.js';
export * from './nanoleaf/mdns.js';
export * from './nanoleaf/pairing.js';
export * from './wled/driver.js';
export * from './wled/http.js';
export * from './wled/looks.js';
export * from './wled/mdns.js';
export * from './home-assistant/driver.js';
export * from './home-assistant/http.js';
export * from './home-assistant/looks.js';
export * from './room-state.js';
