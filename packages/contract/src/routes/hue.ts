import { EFFECT_FLAGS, HUE_FLAG_DURATION_MS } from '@flaglight/core';
import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';
import { safeString } from '../strings.js';

/** More lights than a bridge holds in one room is a client fault. */
export const HUE_MAX_FLAG_LIGHTS = 50;

// CLIP v2 resource ids are UUIDs (reference §3.2).
export const HueLightIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Invalid light id');

const unit = (name: string) =>
  z
    .number({ error: `${name} must be a number between 0 and 1` })
    .min(0, `${name} must be between 0 and 1`)
    .max(1, `${name} must be between 0 and 1`);

const XYSchema = z.object({ x: z.number(), y: z.number() });

/** SPEC §7 `PUT /hue/lights/{id}/state`: on, brightness (0-100 %), color.xy, duration (ms). */
export const HueLightStateBodySchema = z
  .object({
    on: z.boolean({ error: 'on must be true or false' }).optional(),
    brightness: z
      .number({ error: 'brightness must be a number from 0 to 100' })
      .min(0, 'brightness must be from 0 to 100')
      .max(100, 'brightness must be from 0 to 100')
      .optional(),
    color: z
      .object({
        xy: z.object({ x: unit('color.xy.x'), y: unit('color.xy.y') }, { error: 'color.xy is required' }),
      })
      .optional(),
    duration: z
      .number({ error: 'duration must be a whole number of milliseconds' })
      .int('duration must be a whole number of milliseconds')
      .min(0, 'duration must be from 0 to 60000 ms')
      .max(60_000, 'duration must be from 0 to 60000 ms')
      .optional(),
  })
  .refine((b) => b.on !== undefined || b.brightness !== undefined || b.color !== undefined, {
    message: 'Send at least one of on, brightness or color',
  });
export type HueLightStateBody = z.infer<typeof HueLightStateBodySchema>;

/** SPEC §7 `POST /hue/lights/flag`: lightIds[], flag, duration 500. */
export const HueFlagBodySchema = z.object({
  lightIds: z
    .array(HueLightIdSchema, { error: 'lightIds must be a list of light ids' })
    .min(1, 'Select at least one light')
    .max(HUE_MAX_FLAG_LIGHTS, `At most ${HUE_MAX_FLAG_LIGHTS} lights at once`),
  flag: z.enum(EFFECT_FLAGS, { error: `Unknown flag: use one of ${EFFECT_FLAGS.join(', ')}` }),
  duration: z
    .number({ error: 'duration must be a whole number of milliseconds' })
    .int('duration must be a whole number of milliseconds')
    .min(0, 'duration must be from 0 to 10000 ms')
    .max(10_000, 'duration must be from 0 to 10000 ms')
    .default(HUE_FLAG_DURATION_MS),
  /** A test ("Test your lights"): the lights go back to the race's flag afterwards (core's createTestProgram). */
  test: z.boolean({ error: 'test must be true or false' }).optional(),
});

export const HueStoreKeyBodySchema = z.object({
  // Sent to the bridge in a header: no line breaks or lone surrogates.
  applicationKey: safeString('applicationKey', { max: 256, trim: true }).optional(),
});

export const HueCallbackQuerySchema = z.object({
  code: safeString('code', { max: 2048 }).optional(),
  state: safeString('state', { max: 512 }).optional(),
  error: safeString('error', { max: 512 }).optional(),
});

export const HUE_DIAGNOSTICS_REASONS = [
  'not_configured',
  'not_connected',
  'token_expired',
  'no_application_key',
  'application_key_rejected',
  'bridge_busy',
  'bridge_unreachable',
] as const;
export type HueDiagnosticsReason = (typeof HUE_DIAGNOSTICS_REASONS)[number];

export const HueDiagnosticsSchema = z
  .object({
    connected: z.boolean(),
    bridges: z.number(),
    lights: z.number(),
    reason: z.enum(HUE_DIAGNOSTICS_REASONS).nullable(),
    message: z.string(),
    instructions: z.string().nullable(),
    error: z.string().optional(),
    details: z.string().nullable().optional(),
  })
  .meta({ id: 'HueDiagnostics' });
export type HueDiagnostics = z.infer<typeof HueDiagnosticsSchema>;

/** A light as `GET /hue/lights` lists it: what the remote transport reads, plus its state. */
export const HueLightViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    label: z.string(),
    type: z.string(),
    archetype: z.string().nullable(),
    on: z.boolean(),
    /** 0-100 %. */
    brightness: z.number().nullable(),
    color: z.object({ xy: XYSchema }).nullable(),
    gamut: z.object({ red: XYSchema, green: XYSchema, blue: XYSchema }).optional(),
    reachable: z.boolean(),
    connected: z.boolean(),
  })
  .meta({ id: 'HueLight' });
export type HueLightView = z.infer<typeof HueLightViewSchema>;

const success = z.object({ success: z.literal(true) });
const hueErrors = errors(401, 403, 429, 502, 503, 504);

export const hueRoutes = {
  status: defineRoute({
    method: 'GET',
    path: '/auth/hue/status',
    auth: 'user',
    summary: 'Whether the account has a Hue connection and an application key',
    tags: ['hue'],
    responses: {
      200: z.object({ connected: z.boolean(), hasApplicationKey: z.boolean() }),
      ...errors(401),
    },
  }),
  start: defineRoute({
    method: 'GET',
    path: '/auth/hue/start',
    auth: 'user',
    summary: "Hue's authorize URL for the OAuth popup (state single use, 10 minutes)",
    description:
      'Also sets `flaglight_hue_oauth`, a signed HttpOnly SameSite=Lax cookie for `/auth/hue/callback` ' +
      '(10 minutes): the callback accepts the state only from the browser that started the flow.',
    tags: ['hue'],
    responses: { 200: z.object({ authUrl: z.string() }), ...errors(401, 503) },
  }),
  disconnect: defineRoute({
    method: 'POST',
    path: '/auth/hue/disconnect',
    auth: 'user',
    summary: "Forget the account's Hue tokens and application key",
    tags: ['hue'],
    responses: { 200: success, ...errors(401) },
  }),
  callbackScript: defineRoute({
    method: 'GET',
    path: '/auth/hue/callback.js',
    auth: 'public',
    summary: 'The script of the OAuth callback page',
    tags: ['hue'],
    produces: 'text/javascript',
    responses: { ...errors(429) },
  }),
  callback: defineRoute({
    method: 'GET',
    path: '/auth/hue/callback',
    auth: 'public',
    summary: "Hue's OAuth redirect target: a page that reports to the app window",
    description:
      'Needs the `flaglight_hue_oauth` cookie set by the start in this browser; spends the state and ' +
      'clears the cookie whatever the outcome. Every outcome is a page, but for too many calls from ' +
      'one address (a JSON 429).',
    tags: ['hue'],
    produces: 'text/html',
    responses: { ...errors(429) },
  }),
  diagnostics: defineRoute({
    method: 'GET',
    path: '/hue/diagnostics',
    auth: 'user',
    summary: 'What stands between the account and its Hue lights, in words',
    tags: ['hue'],
    responses: { 200: HueDiagnosticsSchema, ...errors(401) },
  }),
  createAppKey: defineRoute({
    method: 'POST',
    path: '/hue/create-app-key',
    auth: 'user',
    summary: 'Pair with the bridge remotely and create an application key',
    tags: ['hue'],
    responses: {
      200: z.object({ success: z.literal(true), applicationKey: z.string() }),
      ...hueErrors,
    },
  }),
  storeAppKey: defineRoute({
    method: 'POST',
    path: '/hue/store-app-key',
    auth: 'user',
    summary: 'Store an application key created elsewhere (checked against the bridge)',
    tags: ['hue'],
    body: HueStoreKeyBodySchema.nullish(),
    responses: { 200: success, ...errors(400, 401, 403, 429, 502, 503, 504) },
  }),
  lights: defineRoute({
    method: 'GET',
    path: '/hue/lights',
    auth: 'user',
    summary: "The bridge's lights",
    tags: ['hue'],
    responses: { 200: z.object({ lights: z.array(HueLightViewSchema) }), ...hueErrors },
  }),
  setLightState: defineRoute({
    method: 'PUT',
    path: '/hue/lights/:id/state',
    auth: 'user',
    plan: 'active',
    summary: 'Set one light',
    tags: ['hue'],
    params: z.object({ id: HueLightIdSchema }),
    body: HueLightStateBodySchema,
    responses: { 200: success, ...errors(400, 401, 403, 404, 429, 502, 503, 504) },
  }),
  flag: defineRoute({
    method: 'POST',
    path: '/hue/lights/flag',
    auth: 'user',
    // Free on an ended trial: the test flag buttons and replays use it, and without the paid live
    // data (ticket, proxy) it plays only the flags its caller picks.
    summary: "Play a flag's effect on the given lights",
    tags: ['hue'],
    body: HueFlagBodySchema,
    responses: {
      200: z.object({ success: z.literal(true), flag: z.enum(EFFECT_FLAGS), lights: z.number() }),
      ...errors(400, 401, 403, 404, 429, 502, 503, 504),
    },
  }),
};
