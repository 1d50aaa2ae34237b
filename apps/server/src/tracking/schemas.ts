import { z } from 'zod';

/** Largest tracked session summary stored, as JSON characters. */
export const MAX_SESSION_DATA_LENGTH = 8192;

export const sessionDataSchema = z
  .object({
    session_key: z.union([z.string().max(50), z.number()]).optional(),
    session_name: z.string().max(200).optional(),
    race_name: z.string().max(200).optional(),
    circuit_name: z.string().max(200).optional(),
    date_start: z.string().max(50).optional(),
    date_end: z.string().max(50).optional(),
  })
  .loose();

export type SessionData = z.infer<typeof sessionDataSchema>;
