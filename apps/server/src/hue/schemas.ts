import { EFFECT_FLAGS } from '@flaglight/core';
import { z } from 'zod';

/** SPEC §9 "Bridge flag duration 500 ms". */
export const HUE_FLAG_DURATION_MS = 500;
/** More lights than a bridge holds in one room is a client fault. */
export const HUE_MAX_FLAG_LIGHTS = 50;

// CLIP v2 resource ids are UUIDs (reference §3.2).
export const lightIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Invalid light id');

export const lightParamsSchema = z.object({ id: lightIdSchema });

const unit = (name: string) =>
  z
    .number({ error: `${name} must be a number between 0 and 1` })
    .min(0, `${name} must be between 0 and 1`)
    .max(1, `${name} must be between 0 and 1`);

/** SPEC §7 `PUT /hue/lights/{id}/state`: on, brightness (0-100 %), color.xy, duration (ms). */
export const lightStateBodySchema = z
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

/** SPEC §7 `POST /hue/lights/flag`: lightIds[], flag, duration 500. */
export const flagBodySchema = z.object({
  lightIds: z
    .array(lightIdSchema, { error: 'lightIds must be a list of light ids' })
    .min(1, 'Select at least one light')
    .max(HUE_MAX_FLAG_LIGHTS, `At most ${HUE_MAX_FLAG_LIGHTS} lights at once`),
  flag: z.enum(EFFECT_FLAGS, { error: `Unknown flag: use one of ${EFFECT_FLAGS.join(', ')}` }),
  duration: z
    .number({ error: 'duration must be a whole number of milliseconds' })
    .int('duration must be a whole number of milliseconds')
    .min(0, 'duration must be from 0 to 10000 ms')
    .max(10_000, 'duration must be from 0 to 10000 ms')
    .default(HUE_FLAG_DURATION_MS),
});

export const storeKeyBodySchema = z.object({
  applicationKey: z
    .string({ error: 'applicationKey must be text' })
    .max(256, 'That application key is too long')
    .optional(),
});

export const callbackQuerySchema = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(512).optional(),
});
