import type { FastifyInstance } from 'fastify';
import type { RegisteredRoute } from '../src/http/route-table.js';

/**
 * The product's routes as the app registered them: everything but the demo simulators (mounted
 * under /sims/, not part of the API), HEAD twins, and the docs page's own hidden routes.
 */
export function productRoutes(app: FastifyInstance): RegisteredRoute[] {
  return app.routeTable.filter(
    (route) => route.method !== 'HEAD' && !route.url.startsWith('/sims') && !route.schema?.hide,
  );
}

/** A URL that reaches a route: path parameters filled in. */
export function concreteUrl(route: Pick<RegisteredRoute, 'url'>, fill = 'some-id'): string {
  return route.url.replace(/:[A-Za-z]+/g, encodeURIComponent(fill)).replace(/\*$/, 'v1/sessions');
}
