import type { AuthLevel, PlanRule } from '@flaglight/contract';
import type { User } from '@flaglight/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deviceTokenMayCall } from '../auth/access.js';
import type { AuthService } from '../auth/service.js';
import type { DeviceService } from '../devices/service.js';
import { forbidden, HttpError, unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, set before validation on every route whose level is not `public`. */
    user: User | null;
    /** The linked companion calling a `device` route with its device token (null for a session). */
    device: { id: string; name: string } | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route: declared by the contract, enforced by `registerAuth`. */
    auth?: AuthLevel;
    /** A paid feature (the contract's `plan`), enforced by `registerAuth`. */
    plan?: PlanRule;
    /** A `device` route only a companion's device token may call (the contract's `deviceOnly`). */
    deviceOnly?: true;
  }
}

/** What an ended trial is told when it calls a paid feature. */
export const TRIAL_EXPIRED_MESSAGE = 'Your free trial has ended. Upgrade to keep following live sessions.';

export const trialExpired = () => new HttpError(403, TRIAL_EXPIRED_MESSAGE, {}, 'trial_expired');

/** What a signed-in account is told on a route that only its companions call. */
export const DEVICE_ONLY_MESSAGE =
  'Only a linked Flaglight Companion may call this route, with its device token.';

export interface AuthOptions {
  /** Sessions anyone signed in may follow whatever their plan: the running replays. */
  isFreeSession?: (sessionKey: number) => boolean;
  /** Device tokens of linked companions, accepted on `device` routes only. */
  devices?: Pick<DeviceService, 'authenticate'>;
}

/** The `sessionKey` of a query as sent (the hook runs before validation); NaN when absent. */
function requestedSession(query: unknown): number {
  const value = (query as Record<string, unknown> | undefined)?.sessionKey;
  return typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
}

/**
 * The one auth layer: each route declares its level (the contract's `auth`), and this hook checks
 * the bearer token before anything else runs, so a signed-out client gets 401 before any body
 * check, and a signed-in non-admin 403 on admin routes. A route declared a paid feature (`plan`)
 * answers 403 `trial_expired` to an account whose plan is not active (auth/access.ts decides).
 */
export function registerAuth(app: FastifyInstance, auth: AuthService, options: AuthOptions = {}): void {
  const isFreeSession = options.isFreeSession ?? (() => false);
  const { devices } = options;
  app.decorateRequest('user', null);
  app.decorateRequest('device', null);
  app.addHook('onRequest', async (request) => {
    const { auth: level, plan, deviceOnly } = request.routeOptions.config;
    if (level === undefined || level === 'public') return;
    const header = request.headers.authorization;
    const { user, row } = await auth.authenticate(header).catch(async (error: unknown) => {
      // Not a session: on a route a companion may call, it may be a device token.
      const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
      if (!devices || !token || !deviceTokenMayCall(level)) throw error;
      const caller = await devices.authenticate(token);
      if (!caller) throw error;
      request.device = { id: caller.device.id, name: caller.device.name };
      return { user: auth.userOf(caller.user), row: caller.user };
    });
    if (level === 'admin' && !user.isAdmin) throw forbidden('Admin access required');
    if (deviceOnly && !request.device) throw forbidden(DEVICE_ONLY_MESSAGE);
    if (plan && !auth.planActive(row)) {
      const free = plan === 'live' && isFreeSession(requestedSession(request.query));
      if (!free) throw trialExpired();
    }
    request.user = user;
  });
}

/** The caller of a route declared `user`, `admin` or `device` (for a companion: its account). */
export function signedInUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}
