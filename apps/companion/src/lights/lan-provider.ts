import type { LanLightProvider } from '@flaglight/core';

/** The light brands the companion drives on the home network: the product's one list (`LAN_LIGHT_PROVIDERS`). */
export type LanProvider = LanLightProvider;
