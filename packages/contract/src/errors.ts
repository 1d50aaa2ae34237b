import { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type ErrorStatus } from './codes.js';

export { ERROR_CODES, codeForStatus, type ErrorCode, type ErrorStatus } from './codes.js';

export const ErrorCodeSchema = z.enum(ERROR_CODES) satisfies z.ZodType<ErrorCode>;

/**
 * Every 4xx/5xx body: `error` for people (SPEC's clients read it) and a stable `code`. Some
 * routes add fields (SPEC's `success: false`, `message`, Hue's `details`); they are kept.
 */
export const ErrorBodySchema = z
  .object({
    error: z.string().describe('What went wrong, in words for people'),
    code: ErrorCodeSchema,
  })
  .loose()
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Response entries for error statuses: `{ 401: ErrorBody, 429: ErrorBody }`. */
export function errors<const S extends readonly ErrorStatus[]>(
  ...statuses: S
): { [K in S[number]]: typeof ErrorBodySchema } {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema])) as {
    [K in S[number]]: typeof ErrorBodySchema;
  };
}
