import type { PlanRule, RouteDef } from '@flaglight/contract';
import type { FastifyRequest } from 'fastify';

/** The rate-limit key of a signed-in account (the address only if, oddly, no one is signed in). */
function perUserKey(request: FastifyRequest): string {
  return request.user ? `user:${request.user.id}` : `ip:${request.ip}`;
}

/** The rate-limit key of the calling companion (else as `perUserKey`). */
function perDeviceKey(request: FastifyRequest): string {
  return request.device ? `device:${request.device.id}` : perUserKey(request);
}

/**
 * Fastify route options for a contract route: method, URL, the schemas Fastify validates requests
 * with and serializes JSON answers through, the auth level the auth hook enforces, and what the
 * OpenAPI page shows, and a per-client rate limit when asked. Spread it into `app.route({ ...fromContract(route), handler })`.
 */
export function fromContract<const R extends RouteDef>(
  route: R,
  options: {
    rateLimitPerMinute?: number;
    /**
     * What the limit counts: each client address (the default), or each signed-in account
     * (`user`: the auth hook runs first, so `request.user` is known; one budget per account
     * whatever the addresses it comes from), or each calling companion (`device`).
     */
    rateLimitPer?: 'client' | 'user' | 'device';
  } = {},
) {
  const response = route.produces
    ? // A page, script, stream or file: only its error answers are JSON.
      Object.fromEntries(Object.entries(route.responses).filter(([status]) => Number(status) >= 400))
    : route.responses;
  return {
    method: route.method,
    url: route.path,
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    config: {
      auth: route.auth,
      ...(route.plan ? { plan: route.plan } : {}),
      ...(route.deviceOnly ? { deviceOnly: true } : {}),
      ...(options.rateLimitPerMinute === undefined
        ? {}
        : {
            rateLimit: {
              max: Math.max(1, options.rateLimitPerMinute),
              timeWindow: '1 minute',
              ...(options.rateLimitPer === 'user' ? { keyGenerator: perUserKey } : {}),
              ...(options.rateLimitPer === 'device' ? { keyGenerator: perDeviceKey } : {}),
            },
          }),
    },
    schema: {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [...route.tags],
      ...(route.auth === 'public' ? {} : { security: [{ bearer: [] }] }),
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: response,
    },
  } as {
    method: R['method'];
    url: R['path'];
    bodyLimit?: number;
    config: {
      auth: R['auth'];
      plan?: PlanRule;
      deviceOnly?: true;
      rateLimit?: { max: number; timeWindow: string; keyGenerator?: (request: FastifyRequest) => string };
    };
    schema: {
      summary: string;
      description?: string;
      tags: string[];
      security?: Array<Record<string, string[]>>;
      params: R['params'];
      querystring: R['query'];
      body: R['body'];
      // A non-JSON success answer (a file, a stream) is not typed against the JSON schemas.
      response: R['produces'] extends string ? unknown : R['responses'];
    };
  };
}
