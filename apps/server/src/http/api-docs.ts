import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_ROUTES, ERROR_CODES, type RouteDef } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

const produces = new Map(
  (API_ROUTES as readonly RouteDef[]).map((route) => [`${route.method} ${route.path}`, route.produces]),
);

/**
 * The OpenAPI document, generated from the routes as registered (their contract schemas), at
 * /api/openapi.json, and a human page at /api/docs (swagger-ui, served from the package: offline).
 * Registered before the routes, so it sees each one as it is added.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Flaglight API',
        version: '1',
        description:
          'Every error answers `{ "error": "<for people>", "code": "<stable code>" }`; clients branch on ' +
          `\`code\`: ${ERROR_CODES.map((code) => `\`${code}\``).join(', ')}.`,
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session token from /auth/login' },
        },
      },
    },
    transform: (document) => {
      // The demo's simulators are not part of the API.
      if (document.url.startsWith('/sims/')) return { schema: { hide: true }, url: document.url };
      const transformed = jsonSchemaTransform(document);
      const method = [document.route.method].flat()[0];
      const content = produces.get(`${method} ${document.url}`);
      if (!content) return transformed;
      // A page, a script, an event stream or a file: its success answer is not JSON.
      const response = { ...(transformed.schema.response as Record<string, unknown> | undefined) };
      response[200] = {
        description: 'Success',
        content: { [content]: { schema: { type: 'string' } } },
      };
      return { ...transformed, schema: { ...transformed.schema, response } };
    },
    transformObject: jsonSchemaTransformObject,
  });

  app.get(OPENAPI_PATH, { schema: { hide: true }, config: { auth: 'public' } }, async () => app.swagger());

  await app.register(async (docs) => {
    // The docs page's own routes (page, assets, spec) are public and not part of the contract.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'public' };
    });
    await docs.register(swaggerUi, {
      routePrefix: API_DOCS_PREFIX,
      // No call to swagger.io's validator (offline, and nothing leaves the server); swagger-ui
      // sets a few inline styles, so this page alone allows them (scripts stay 'self' only).
      validatorUrl: false,
      staticCSP:
        "default-src 'self'; base-uri 'self'; img-src 'self' data:; object-src 'none'; " +
        "script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'; form-action 'self'",
    });
  });
}
