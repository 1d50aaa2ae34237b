import { readStoredToken } from '../auth/auth-storage';

/** A non-2xx answer from the server, carrying its `{ error }` text (DESIGN §5.3). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Defaults to the stored session token; pass null to send none. */
  token?: string | null;
}

function errorText(body: unknown, status: number): string {
  if (typeof body === 'object' && body !== null) {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && error !== '') return error;
    if (typeof message === 'string' && message !== '') return message;
  }
  if (typeof body === 'string' && body.trim() !== '' && body.length < 200) return body.trim();
  return `Request failed (${status})`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Calls the product API on this origin with the session's bearer token (SPEC §7) and
 * returns the parsed body; a non-2xx answer throws an ApiError with the server's `error` text.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, signal } = options;
  const token = options.token === undefined ? readStoredToken() : options.token;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const parsed = await readBody(response);
  if (!response.ok) throw new ApiError(errorText(parsed, response.status), response.status, parsed);
  return parsed as T;
}
