// The one list of light providers the product knows. The account's preferences (contract), the web
// app's Light Control and the companion's hub all read it: a brand added here is a key every one of
// them takes, and a key not here is refused by name, never counted against a number.

/** Lights the browser or the server drives through a vendor's cloud. */
export const CLOUD_LIGHT_PROVIDERS = ['lifx', 'hue', 'govee'] as const;
export type CloudLightProvider = (typeof CLOUD_LIGHT_PROVIDERS)[number];

/**
 * Lights a desktop companion drives on the home network. Their ids are the cloud's ids of the same
 * bulb where the brand has a cloud (`lifx_lan` ~ `lifx`, `hue_local` ~ `hue`, `govee_lan` ~ `govee`).
 */
export const LAN_LIGHT_PROVIDERS = [
  'lifx_lan',
  'hue_local',
  'govee_lan',
  'nanoleaf',
  'home_assistant',
  'wled',
] as const;
export type LanLightProvider = (typeof LAN_LIGHT_PROVIDERS)[number];

/** Every provider an account's light lists (`selectedLights`, `hiddenLights`) may name. */
export const LIGHT_PROVIDERS = [...CLOUD_LIGHT_PROVIDERS, ...LAN_LIGHT_PROVIDERS] as const;
export type LightProvider = (typeof LIGHT_PROVIDERS)[number];

/** The cloud provider that knows the same light by the same id; Nanoleaf, Home Assistant and WLED have none. */
export const CLOUD_TWIN: Readonly<Partial<Record<LanLightProvider, CloudLightProvider>>> = {
  lifx_lan: 'lifx',
  hue_local: 'hue',
  govee_lan: 'govee',
};

/** True for a provider the companion drives on the home network. */
export function isLanLightProvider(value: string): value is LanLightProvider {
  return (LAN_LIGHT_PROVIDERS as readonly string[]).includes(value);
}
