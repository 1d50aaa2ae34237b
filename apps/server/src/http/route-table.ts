import type { FastifyInstance, FastifySchema } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
  auth: string | undefined;
  /** A paid feature's rule (the contract's `plan`), enforced by the auth hook. */
  plan: string | undefined;
  /** Only a companion's device token may call it (the contract's `deviceOnly`). */
  deviceOnly: boolean;
  /** A per-minute limit is set (answers 429 past it). */
  rateLimited: boolean;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, for the route × role and fuzz suites and the start-up check. */
    routeTable: readonly RegisteredRoute[];
  }
}

/** Records each route as it is added (call first, before any route or plugin). */
export function recordRoutes(app: FastifyInstance): void {
  const table: RegisteredRoute[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      // Read when asked: a plugin's own onRoute hook (run after this one) may still set the level.
      table.push({
        method,
        url: route.url,
        get auth() {
          return route.config?.auth;
        },
        get plan() {
          return route.config?.plan;
        },
        get deviceOnly() {
          return route.config?.deviceOnly === true;
        },
        get rateLimited() {
          const limit = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
          return typeof limit === 'object' && limit !== null;
        },
        schema: route.schema,
      });
    }
  });
}
