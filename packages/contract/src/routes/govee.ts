import { EFFECT_FLAGS } from '@flaglight/core';
import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';
import { safeString } from '../strings.js';

/** More Govee devices than one account holds in a home is a client fault. */
export const GOVEE_MAX_FLAG_LIGHTS = 50;
/** Calls per account and minute to each Govee route (the server's own limit, before Govee's). */
export const GOVEE_CONNECTS_PER_MINUTE = 10;
export const GOVEE_LIGHT_LISTS_PER_MINUTE = 10;
export const GOVEE_COMMANDS_PER_MINUTE = 60;
export const GOVEE_DIAGNOSTICS_PER_MINUTE = 20;

// Govee device ids are MAC-like hex with colons (e.g. 7A:4B:D4:AD:FC:01:C0:01); kept loose but
// header- and URL-safe, since the id goes into Govee's JSON body.
export const GoveeLightIdSchema = z
  .string({ error: 'A light id must be text' })
  .regex(/^[0-9A-Za-z:._-]{1,64}$/, 'Invalid light id');

export const GoveeConnectBodySchema = z.object({
  // Sent to Govee in a header: no line breaks or lone surrogates.
  apiKey: safeString('apiKey', { max: 128, min: 1, trim: true }),
});

const lightIds = z
  .array(GoveeLightIdSchema, { error: 'lightIds must be a list of light ids' })
  .min(1, 'Select at least one light')
  .max(GOVEE_MAX_FLAG_LIGHTS, `At most ${GOVEE_MAX_FLAG_LIGHTS} lights at once`);

const channel = (name: string) =>
  z
    .number({ error: `${name} must be a whole number from 0 to 255` })
    .int(`${name} must be a whole number from 0 to 255`)
    .min(0, `${name} must be a whole number from 0 to 255`)
    .max(255, `${name} must be a whole number from 0 to 255`);

/** A solid look for some lights: power, colour (RGB 0-255), brightness (1-100 %). */
export const GoveeStateBodySchema = z
  .object({
    lightIds,
    on: z.boolean({ error: 'on must be true or false' }).optional(),
    color: z.object({ r: channel('color.r'), g: channel('color.g'), b: channel('color.b') }).optional(),
    brightness: z
      .number({ error: 'brightness must be a whole number from 1 to 100' })
      .int('brightness must be a whole number from 1 to 100')
      .min(1, 'brightness must be a whole number from 1 to 100')
      .max(100, 'brightness must be a whole number from 1 to 100')
      .optional(),
  })
  .refine((b) => b.on !== undefined || b.color !== undefined || b.brightness !== undefined, {
    message: 'Send at least one of on, color or brightness',
  });
export type GoveeStateBody = z.infer<typeof GoveeStateBodySchema>;

export const GoveeFlagBodySchema = z.object({
  lightIds,
  flag: z.enum(EFFECT_FLAGS, { error: `Unknown flag: use one of ${EFFECT_FLAGS.join(', ')}` }),
});

/**
 * How much of each flag the daily budget still allows: `normal` (colour and brightness),
 * `saving` (colour only, no fastest-lap flash), `track_only` (only track-wide flags: red, green,
 * chequered, safety car, VSC), `exhausted` (nothing until the day resets).
 */
export const GOVEE_BUDGET_MODES = ['normal', 'saving', 'track_only', 'exhausted'] as const;
export type GoveeBudgetMode = (typeof GOVEE_BUDGET_MODES)[number];

export const GoveeLightViewSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    name: z.string(),
    /** Govee's model number, e.g. H6159. */
    type: z.string(),
    connected: z.boolean(),
  })
  .meta({ id: 'GoveeLight' });
export type GoveeLightView = z.infer<typeof GoveeLightViewSchema>;

export const GoveeDiagnosticsSchema = z
  .object({
    connected: z.boolean(),
    reason: z.enum(['not_connected', 'key_refused', 'rate_limited', 'govee_unreachable']).nullable(),
    message: z.string(),
    instructions: z.string().nullable(),
    lights: z.number(),
    budget: z.object({
      dailyLimit: z.number(),
      dailyRemaining: z.number(),
      /** ISO-8601: when Govee's day starts again (UTC midnight). */
      dailyResetsAt: z.string(),
      perDeviceMinuteLimit: z.number(),
      /** Requests this server sent to Govee for the account today. */
      sentToday: z.number(),
      mode: z.enum(GOVEE_BUDGET_MODES),
    }),
    /** Lights with a newer look still waiting for their per-minute allowance. */
    pendingLights: z.number(),
    /** Set while Govee asked us to wait (429 Retry-After). */
    pausedUntil: z.string().nullable(),
    lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  })
  .meta({ id: 'GoveeDiagnostics' });
export type GoveeDiagnostics = z.infer<typeof GoveeDiagnosticsSchema>;

const success = z.object({ success: z.literal(true) });
const goveeErrors = errors(400, 401, 403, 429, 502, 503, 504);

/**
 * Govee's cloud through the server (reference §2.2: the key stays out of the page, the limits are
 * kept here). Every route needs a signed-in account; each is limited per account and minute
 * (limits above) on top of Govee's own budget, which the server paces.
 */
export const goveeRoutes = {
  status: defineRoute({
    method: 'GET',
    path: '/api/govee/status',
    auth: 'user',
    summary: 'Whether the account has a Govee API key stored (the key itself is never returned)',
    tags: ['govee'],
    responses: { 200: z.object({ connected: z.boolean() }), ...errors(401, 429) },
  }),
  connect: defineRoute({
    method: 'POST',
    path: '/api/govee/connect',
    auth: 'user',
    summary: 'Check a Govee API key by listing its devices, then store it sealed',
    tags: ['govee'],
    body: GoveeConnectBodySchema,
    responses: { 200: z.object({ success: z.literal(true), lights: z.number() }), ...goveeErrors },
  }),
  disconnect: defineRoute({
    method: 'POST',
    path: '/api/govee/disconnect',
    auth: 'user',
    summary: "Forget the account's Govee API key and stop its pending light updates",
    tags: ['govee'],
    responses: { 200: success, ...errors(401, 429) },
  }),
  lights: defineRoute({
    method: 'GET',
    path: '/api/govee/lights',
    auth: 'user',
    summary: "The account's Govee devices",
    tags: ['govee'],
    responses: { 200: z.object({ lights: z.array(GoveeLightViewSchema) }), ...goveeErrors },
  }),
  setState: defineRoute({
    method: 'POST',
    path: '/api/govee/lights/state',
    auth: 'user',
    plan: 'active',
    summary: 'Set a solid look on some lights (queued and paced within Govee’s limits)',
    tags: ['govee'],
    body: GoveeStateBodySchema,
    responses: {
      200: z.object({ success: z.literal(true), lights: z.number() }),
      ...errors(400, 401, 403, 404, 429, 502, 503, 504),
    },
  }),
  flag: defineRoute({
    method: 'POST',
    path: '/api/govee/lights/flag',
    auth: 'user',
    // Free on an ended trial, like Hue's flag route: test buttons and replays use it.
    summary: "Show a flag's settled colour on the given lights (cloud: solid colours only)",
    tags: ['govee'],
    body: GoveeFlagBodySchema,
    responses: {
      200: z.object({
        success: z.literal(true),
        flag: z.enum(EFFECT_FLAGS),
        lights: z.number(),
        /** False when the budget mode skips this flag (the lights keep the last look). */
        sent: z.boolean(),
        mode: z.enum(GOVEE_BUDGET_MODES),
        /** What the cloud shows instead of the effect, e.g. "solid red (no strobe)". */
        note: z.string(),
      }),
      ...errors(400, 401, 403, 404, 429, 502, 503, 504),
    },
  }),
  diagnostics: defineRoute({
    method: 'GET',
    path: '/api/govee/diagnostics',
    auth: 'user',
    summary: 'What stands between the account and its Govee lights, with the day’s remaining budget',
    tags: ['govee'],
    responses: { 200: GoveeDiagnosticsSchema, ...errors(401, 429) },
  }),
};
