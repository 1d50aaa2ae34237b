/** The light brands the companion drives on the home network. */
export type LanProvider = 'lifx_lan' | 'hue_local' | 'govee_lan' | 'nanoleaf' | 'home_assistant' | 'wled';
