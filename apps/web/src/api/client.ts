// Types only: a value import would bring zod and every route schema into the landing bundle.
import type { ApiRouteKey, ApiRoutes, ErrorCode, RouteInput, RouteOutput } from '@flaglight/contract';
import { codeForStatus } from '@flaglight/contract/codes';
import { readStoredToken } from '../auth/auth-storage';

export type { ErrorCode } from '@flaglight/contract';

/**
 * A non-2xx answer from the server (DESIGN §5.3). Branch on `code`, never on `message`: the
 * message is the body's `error` text, for people, and may change.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;

  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? errorCode(body, status);
  }
}

function errorCode(body: unknown, status: number): ErrorCode {
  const code = isRecord(body) ? body.code : undefined;
  // Every error body of the server carries a code of ERROR_CODES (its serializer checks it).
  if (typeof code === 'string' && code !== '') return code as ErrorCode;
  // A body without one (a proxy's HTML page, a network appliance): the status's generic code.
  return codeForStatus(status);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function errorText(body: unknown, status: number): string {
  if (isRecord(body)) {
    const { error, message } = body;
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

export interface ApiCallOptions {
  /** Defaults to the stored session token; pass null to send none. */
  token?: string | null;
  signal?: AbortSignal;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function send(
  method: Method,
  url: string,
  body: unknown,
  { token: given, signal }: ApiCallOptions,
): Promise<unknown> {
  const token = given === undefined ? readStoredToken() : given;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const parsed = await readBody(response);
  if (!response.ok) throw new ApiError(errorText(parsed, response.status), response.status, parsed);
  return parsed;
}

type Params = Readonly<Record<string, string | number>>;
type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** `/admin/users/:id` with `{ id: 'a/b' }` → `/admin/users/a%2Fb`; a `*` tail keeps its slashes. */
export function fillPath(path: string, params: Params = {}): string {
  const value = (name: string): string => {
    const given = params[name];
    if (given === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return String(given);
  };
  return path
    .replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => encodeURIComponent(value(name)))
    .replace(/\*$/, () => value('*').split('/').map(encodeURIComponent).join('/'));
}

/** `?a=1&b=x`, leaving out undefined (and null) values; '' when nothing is left. */
export function queryString(query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Calls a route of the API contract on this origin, by its key (`'PUT /admin/users/:id/plan'`),
 * with the session's bearer token (SPEC §7). Resolves to the success body as the contract
 * describes it (the server serializes through the same schemas); a non-2xx answer throws an
 * ApiError with the body's `code` and `error` text.
 */
export async function apiCall<K extends ApiRouteKey>(
  key: K,
  input?: RouteInput<ApiRoutes[K]>,
  options: ApiCallOptions = {},
): Promise<RouteOutput<ApiRoutes[K]>> {
  const space = key.indexOf(' ');
  const method = key.slice(0, space) as Method;
  const { params, query, body } = (input ?? {}) as { params?: Params; query?: Query; body?: unknown };
  const url = fillPath(key.slice(space + 1), params) + queryString(query);
  return (await send(method, url, body, options)) as RouteOutput<ApiRoutes[K]>;
}

export interface ApiRequestOptions extends ApiCallOptions {
  method?: Method;
  /** Sent as JSON. */
  body?: unknown;
}

/**
 * A call to a URL outside the API contract (the demo bot check's token URL, which the server's
 * config names). Routes of the contract go through `apiCall`.
 */
export async function apiRequest<T>(url: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, ...rest } = options;
  return (await send(method, url, body, rest)) as T;
}
