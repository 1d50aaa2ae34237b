// The desktop companion's LAN drivers (Node only): `@flaglight/lights/lan`. The browser entry
// (`@flaglight/lights`) never imports this folder.
export * from './lifx/driver.js';
export { normaliseLifxId } from './lifx/bulb.js';
export { stateWrites, strobeWrites, toLanHsbk, LIFX_LAN_WHITE_KELVIN } from './lifx/messages.js';
