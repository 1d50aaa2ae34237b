import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';
import { GOVEE_MAX_FLAG_LIGHTS, GoveeLightIdSchema } from './govee.js';
import { HUE_MAX_FLAG_LIGHTS, HueLightIdSchema } from './hue.js';

// "As it was" for the cloud lights the server plays (Hue's remote API, Govee's cloud): each light's
// own state read before Flaglight first changes it in a session, and given back afterwards. The
// browser keeps what was read (it knows the session) and sends it back; the server checks it here.

const unit = (name: string) =>
  z
    .number({ error: `${name} must be a number between 0 and 1` })
    .min(0, `${name} must be between 0 and 1`)
    .max(1, `${name} must be between 0 and 1`);

/** A Hue light's saved state (CLIP v2): on, brightness 0–100 %, and xy or a colour temperature. */
export const HueSavedStateSchema = z.strictObject({
  on: z.boolean({ error: 'on must be true or false' }),
  brightness: z
    .number({ error: 'brightness must be a number from 0 to 100' })
    .min(0, 'brightness must be from 0 to 100')
    .max(100, 'brightness must be from 0 to 100')
    .optional(),
  xy: z.strictObject({ x: unit('xy.x'), y: unit('xy.y') }).optional(),
  mirek: z
    .number({ error: 'mirek must be a whole number from 50 to 1000' })
    .int('mirek must be a whole number from 50 to 1000')
    .min(50, 'mirek must be a whole number from 50 to 1000')
    .max(1000, 'mirek must be a whole number from 50 to 1000')
    .optional(),
});
export type HueSavedState = z.infer<typeof HueSavedStateSchema>;

/**
 * A Govee device's saved state (cloud): power, brightness 1–100 %, colour as r*65536+g*256+b, or the
 * white it showed as its colour temperature in kelvin (given back with `colorTemperatureK`; when
 * both are sent, the white).
 */
export const GoveeSavedStateSchema = z.strictObject({
  on: z.boolean({ error: 'on must be true or false' }),
  brightness: z
    .number({ error: 'brightness must be a whole number from 1 to 100' })
    .int('brightness must be a whole number from 1 to 100')
    .min(1, 'brightness must be a whole number from 1 to 100')
    .max(100, 'brightness must be a whole number from 1 to 100')
    .optional(),
  rgb: z
    .number({ error: 'rgb must be a whole number from 0 to 16777215' })
    .int('rgb must be a whole number from 0 to 16777215')
    .min(0, 'rgb must be a whole number from 0 to 16777215')
    .max(0xffffff, 'rgb must be a whole number from 0 to 16777215')
    .optional(),
  kelvin: z
    .number({ error: 'kelvin must be a whole number from 1000 to 10000' })
    .int('kelvin must be a whole number from 1000 to 10000')
    .min(1000, 'kelvin must be a whole number from 1000 to 10000')
    .max(10_000, 'kelvin must be a whole number from 1000 to 10000')
    .optional(),
});
export type GoveeSavedState = z.infer<typeof GoveeSavedStateSchema>;

/** One light as read: its state, or why it cannot be read (then it is left as it is). */
const savedLight = <T extends z.ZodType>(state: T) =>
  z.discriminatedUnion('readable', [
    z.object({ readable: z.literal(true), on: z.boolean(), state }),
    z.object({ readable: z.literal(false), reason: z.string() }),
  ]);

const readBody = <T extends z.ZodType>(id: T, max: number) =>
  z.object({
    lightIds: z
      .array(id, { error: 'lightIds must be a list of light ids' })
      .min(1, 'Name at least one light')
      .max(max, `At most ${max} lights at once`),
  });

const restoreBody = <I extends z.ZodType, S extends z.ZodType>(id: I, state: S, max: number) =>
  z.object({
    lights: z
      .array(z.object({ id, state }), { error: 'lights must be a list of { id, state }' })
      .min(1, 'Name at least one light')
      .max(max, `At most ${max} lights at once`),
  });

export const HueReadStatesBodySchema = readBody(HueLightIdSchema, HUE_MAX_FLAG_LIGHTS);
export const HueRestoreStatesBodySchema = restoreBody(
  HueLightIdSchema,
  HueSavedStateSchema,
  HUE_MAX_FLAG_LIGHTS,
);
export const GoveeReadStatesBodySchema = readBody(GoveeLightIdSchema, GOVEE_MAX_FLAG_LIGHTS);
export const GoveeRestoreStatesBodySchema = restoreBody(
  GoveeLightIdSchema,
  GoveeSavedStateSchema,
  GOVEE_MAX_FLAG_LIGHTS,
);

/** What a give-back did: lights sent their saved state, and lights left with why. */
export const RestoreReportSchema = z.object({
  restored: z.array(z.string()),
  left: z.array(z.object({ id: z.string(), reason: z.string() })),
});

const statusErrors = errors(400, 401, 403, 404, 429, 502, 503, 504);

export const roomStateRoutes = {
  hueRead: defineRoute({
    method: 'POST',
    path: '/hue/lights/read-states',
    auth: 'user',
    // Free like the flag route: it only reads the lights a session is about to change.
    summary: 'Read the given Hue lights as they are (on, brightness, colour), to give them back later',
    tags: ['hue'],
    body: HueReadStatesBodySchema,
    responses: {
      200: z.object({ lights: z.record(z.string(), savedLight(HueSavedStateSchema)) }),
      ...statusErrors,
    },
  }),
  hueRestore: defineRoute({
    method: 'POST',
    path: '/hue/lights/restore-states',
    auth: 'user',
    summary: 'Give Hue lights back the states read before (playing flags on them stop first)',
    tags: ['hue'],
    body: HueRestoreStatesBodySchema,
    responses: { 200: RestoreReportSchema, ...statusErrors },
  }),
  goveeRead: defineRoute({
    method: 'POST',
    path: '/api/govee/lights/read-states',
    auth: 'user',
    summary:
      'Read the given Govee devices as they are (power, brightness, colour or white), one state call each',
    tags: ['govee'],
    body: GoveeReadStatesBodySchema,
    responses: {
      200: z.object({ lights: z.record(z.string(), savedLight(GoveeSavedStateSchema)) }),
      ...statusErrors,
    },
  }),
  goveeRestore: defineRoute({
    method: 'POST',
    path: '/api/govee/lights/restore-states',
    auth: 'user',
    summary: 'Give Govee devices back the states read before (queued and paced within Govee’s limits)',
    tags: ['govee'],
    body: GoveeRestoreStatesBodySchema,
    responses: { 200: RestoreReportSchema, ...statusErrors },
  }),
};
