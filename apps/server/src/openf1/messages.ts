/** SPEC §8 texts for OpenF1 failures, kept in one place (CONVENTIONS.md). */
export const OPENF1_MESSAGES = {
  unauthorized: 'Authentication expired. Please log in again.',
  rateLimited: 'Rate limited by OpenF1 API. Please wait before retrying.',
  invalidJson: 'Invalid JSON response from OpenF1 API',
  requestFailed: (detail: string) => `OpenF1 API request failed: ${detail}`,
  noLiveSession: 'No live session found',
} as const;
