/** The bench could not set up what it measures: it prints the message and exits non-zero. */
export class SetupError extends Error {
  override name = 'SetupError';
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
