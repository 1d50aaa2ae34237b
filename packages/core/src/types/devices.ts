import { z } from 'zod';

/** SPEC §3 Light device (LIFX cloud); unknown fields ignored. */
export const LightDeviceSchema = z.object({
  id: z.string(),
  label: z.string().optional().default(''),
  name: z.string().optional(),
  type: z.string().optional(),
  group: z.object({ name: z.string() }).partial().nullable().optional(),
  location: z.object({ name: z.string() }).partial().nullable().optional(),
  connected: z.boolean().optional().default(true),
});
export type LightDevice = z.infer<typeof LightDeviceSchema>;

/** LIFX GET /lights/all answers an array, or an object holding it under `data` or `lights`. */
export const LightDeviceListSchema = z.union([
  z.array(LightDeviceSchema),
  z.object({ data: z.array(LightDeviceSchema) }).transform((value) => value.data),
  z.object({ lights: z.array(LightDeviceSchema) }).transform((value) => value.lights),
]);

/** SPEC §3 Bridge (Hue) light. */
export const HueLightSchema = z.object({ id: z.string(), name: z.string(), type: z.string().optional() });
export type HueLight = z.infer<typeof HueLightSchema>;
