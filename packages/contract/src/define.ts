import type { z } from 'zod';

/**
 * Who may call a route:
 * - `public`: anyone (some check a credential of their own: a stream ticket, a webhook signature);
 * - `user`: a signed-in account (bearer session token);
 * - `admin`: a signed-in admin;
 * - `device`: a linked desktop companion (bearer device token) or a signed-in account.
 */
export const AUTH_LEVELS = ['public', 'user', 'admin', 'device'] as const;
export type AuthLevel = (typeof AUTH_LEVELS)[number];

/**
 * Whether a signed-in route is a paid feature (DESIGN §6). The auth layer refuses
 * an account whose plan is not active (a trial that has ended) with 403 `trial_expired`:
 * - `active`: always (Hue light control, the OpenF1 proxy);
 * - `live`: unless the query's `sessionKey` names a running replay (replays stay free).
 * Routes without it are open to every signed-in account. Admins and operators are always active.
 */
export const PLAN_RULES = ['active', 'live'] as const;
export type PlanRule = (typeof PLAN_RULES)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Content types of success answers that are not JSON. */
export type NonJsonContent =
  'text/html' | 'text/javascript' | 'text/event-stream' | 'application/octet-stream';

export interface RouteDef {
  method: HttpMethod;
  /** Fastify's path syntax: `/admin/users/:id`, `/api/openf1/proxy/*`. */
  path: string;
  auth: AuthLevel;
  /** A paid feature: refused to an ended trial (see PLAN_RULES). */
  plan?: PlanRule;
  /**
   * Only on a `device` route: a linked companion's device token alone may call it; a signed-in
   * account's session gets 403 `forbidden` (what the route stores is the companion's own report).
   */
  deviceOnly?: true;
  summary: string;
  description?: string;
  tags: readonly string[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** One schema per status the route answers, success and error alike. */
  responses: { readonly [status: number]: z.ZodType };
  /** The success answer is not JSON: a page, a script, an event stream or a file. */
  produces?: NonJsonContent;
  /** A body limit of its own, above the app's default (a document that grows with the lights). */
  bodyLimit?: number;
}

/** Declares a route; the literal types are kept so clients and handlers infer from them. */
export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

type Flatten<T> = T extends RouteDef
  ? T
  : T extends object
    ? { [K in keyof T]: Flatten<T[K]> }[keyof T]
    : never;

/** The union of every route of a contract object (nested by feature). */
export type RoutesOf<T> = Flatten<T>;

/** `"POST /auth/login"`: a route's key. */
export type KeyOf<R extends RouteDef> = `${R['method']} ${R['path']}`;

type SuccessSchema<R extends RouteDef> = R['responses'] extends { 200: infer S }
  ? S
  : R['responses'] extends { 201: infer S }
    ? S
    : R['responses'] extends { 204: infer S }
      ? S
      : never;

/** What a route answers on success (after the server's serialization). */
export type RouteOutput<R extends RouteDef> =
  SuccessSchema<R> extends z.ZodType ? z.output<SuccessSchema<R>> : never;

/** What a client sends: params, query and body as the schemas accept them (before defaults). */
export type RouteInput<R extends RouteDef> = (R['params'] extends z.ZodType
  ? { params: z.input<R['params']> }
  : { params?: never }) &
  (R['query'] extends z.ZodType ? { query?: z.input<R['query']> } : { query?: never }) &
  (R['body'] extends z.ZodType ? { body: z.input<R['body']> } : { body?: never });
