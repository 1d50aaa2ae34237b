import type { KeyOf, RoutesOf } from './define.js';
import { adminRoutes, authRoutes, licenceRoutes, paymentRoutes, trackingRoutes } from './routes/auth.js';
import { deviceRoutes } from './routes/devices.js';
import { goveeRoutes } from './routes/govee.js';
import { hueRoutes } from './routes/hue.js';
import { liveRoutes, replayRoutes, scheduleRoutes } from './routes/live.js';
import { metaRoutes } from './routes/meta.js';
import { preferenceRoutes } from './routes/preferences.js';
import { roomStateRoutes } from './routes/room-state.js';

export * from './define.js';
export * from './errors.js';
export * from './limits.js';
export * from './looks.js';
export * from './looks-file.js';
export * from './light-follow.js';
export * from './routes/auth.js';
export * from './routes/devices.js';
export * from './routes/govee.js';
export * from './routes/hue.js';
export * from './routes/live.js';
export * from './routes/meta.js';
export * from './routes/preferences.js';
export * from './routes/room-state.js';
export * from './strings.js';

/** The whole API, by feature. The server registers exactly these routes; clients call them. */
export const api = {
  meta: metaRoutes,
  auth: authRoutes,
  licences: licenceRoutes,
  payments: paymentRoutes,
  tracking: trackingRoutes,
  admin: adminRoutes,
  live: liveRoutes,
  replays: replayRoutes,
  schedule: scheduleRoutes,
  hue: hueRoutes,
  govee: goveeRoutes,
  preferences: preferenceRoutes,
  devices: deviceRoutes,
  roomState: roomStateRoutes,
};

export type Api = typeof api;
export type ApiRoute = RoutesOf<Api>;
/** Every route by its key, e.g. `ApiRoutes['POST /auth/login']`. */
export type ApiRoutes = { [R in ApiRoute as KeyOf<R>]: R };
export type ApiRouteKey = keyof ApiRoutes;

/** Every route of the contract, flat. */
export const API_ROUTES: readonly ApiRoute[] = Object.values(api).flatMap(
  (group) => Object.values(group) as ApiRoute[],
);
