import type { AuthLevel } from '@flaglight/contract';
import type { User } from '@flaglight/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/service.js';
import { forbidden, unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, set before validation on every route whose level is not `public`. */
    user: User | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route: declared by the contract, enforced by `registerAuth`. */
    auth?: AuthLevel;
  }
}

/**
 * The one auth layer: each route declares its level (the contract's `auth`), and this hook checks
 * the bearer token before anything else runs, so a signed-out client gets 401 before any body
 * check, and a signed-in non-admin 403 on admin routes.
 */
export function registerAuth(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const level = request.routeOptions.config.auth;
    if (level === undefined || level === 'public') return;
    const { user } = await auth.authenticate(request.headers.authorization);
    if (level === 'admin' && !user.isAdmin) throw forbidden('Admin access required');
    request.user = user;
  });
}

/** The caller of a route declared `user`, `admin` or `device`. */
export function signedInUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}
