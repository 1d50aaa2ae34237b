/** A control request's JSON body as a record; anything else reads as empty. */
export type ControlBody = Record<string, unknown>;

export const asBody = (body: unknown): ControlBody =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as ControlBody) : {};
