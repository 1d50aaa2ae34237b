import { z } from 'zod';

const optionalText = z.string().nullable().optional().catch(null);
const optionalNumber = z.number().nullable().optional().catch(null);

/**
 * SPEC §3 race-control message, OpenF1 /v1/race_control shape. Lenient: every field may be
 * null or missing, a field of the wrong type reads as null, unknown fields are dropped.
 */
export const RaceControlMessageSchema = z.object({
  date: optionalText,
  category: optionalText,
  flag: optionalText,
  scope: optionalText,
  sector: optionalNumber,
  message: optionalText,
  driver_number: optionalNumber,
  lap_number: optionalNumber,
  session_key: optionalNumber,
  meeting_key: optionalNumber,
  qualifying_phase: optionalNumber,
});
export type RaceControlMessage = z.infer<typeof RaceControlMessageSchema>;

/** A file or response holding race-control records: an array, or `{ messages: [...] }`. */
export const RaceControlInputSchema = z.union([
  z.array(z.unknown()),
  z.object({ messages: z.array(z.unknown()) }).transform((value) => value.messages),
]);
