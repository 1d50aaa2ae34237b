import {
  AbortError,
  HttpClient,
  HttpError,
  type HttpRequest,
  HttpResponse,
  TimeoutError,
} from '@microsoft/signalr';

/** Attribute names of a `Set-Cookie` line, never cookie names (tolerant parsing, reference §9). */
const COOKIE_ATTRIBUTES = new Set([
  'path',
  'domain',
  'expires',
  'max-age',
  'samesite',
  'secure',
  'httponly',
  'partitioned',
  'priority',
]);

/** Name and value of a `Set-Cookie` line, or null when it has none. */
export function parseSetCookie(line: string): { name: string; value: string; expired: boolean } | null {
  const [pair = '', ...attributes] = line.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (!name || COOKIE_ATTRIBUTES.has(name.toLowerCase())) return null;
  const expired = attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a));
  return { name, value, expired };
}

/**
 * The HTTP side of the SignalR client: Node's fetch plus a cookie jar for the one host it talks
 * to, so the load balancer's sticky cookies (AWSALBCORS from the OPTIONS preflight, AWSALB from
 * the POST: reference §2) ride on every later request and on the WebSocket upgrade
 * (`getCookieString`). Used instead of the library's default client, whose cookie jar it loads
 * with a `require` no bundler can follow (decision 019).
 */
export class CookieHttpClient extends HttpClient {
  private readonly jar = new Map<string, string>();
  private failedStatus: number | null = null;

  constructor(
    private readonly headers: Record<string, string> = {},
    private readonly preflight = true,
  ) {
    super();
  }

  /** The status of the last request the host refused (4xx, 5xx); null after a good answer. */
  lastFailedStatus(): number | null {
    return this.failedStatus;
  }

  /** The cookies held now (name → value). */
  cookies(): Record<string, string> {
    return Object.fromEntries(this.jar);
  }

  override getCookieString(_url: string): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  override async send(request: HttpRequest): Promise<HttpResponse> {
    if (!request.url || !request.method) throw new Error('No url or method defined.');
    if (this.preflight && request.method === 'POST' && /\/negotiate(\?|$)/.test(request.url)) {
      // Like the public clients: OPTIONS first, only for its AWSALBCORS cookie; failures are ignored.
      try {
        await this.fetch({ ...request, method: 'OPTIONS', content: undefined });
      } catch {
        // The POST will say what is wrong.
      }
    }
    const response = await this.fetch(request);
    const content =
      request.responseType === 'arraybuffer' ? await response.arrayBuffer() : await response.text();
    if (!response.ok) {
      this.failedStatus = response.status;
      // The start of the body, for the log only: an error page can be megabytes of HTML.
      const message = typeof content === 'string' && content ? content.slice(0, 200) : response.statusText;
      throw new HttpError(message, response.status);
    }
    this.failedStatus = null;
    return new HttpResponse(response.status, response.statusText, content);
  }

  private async fetch(request: HttpRequest): Promise<Response> {
    if (request.abortSignal?.aborted) throw new AbortError();
    const controller = new AbortController();
    let failure: Error | null = null;
    if (request.abortSignal) {
      request.abortSignal.onabort = () => {
        failure = new AbortError();
        controller.abort();
      };
    }
    const timer = request.timeout
      ? setTimeout(() => {
          failure = new TimeoutError();
          controller.abort();
        }, request.timeout)
      : null;
    const cookie = this.getCookieString(request.url ?? '');
    try {
      const response = await fetch(request.url ?? '', {
        method: request.method,
        body: request.content === '' ? undefined : request.content,
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          ...this.headers,
          ...request.headers,
          ...(cookie ? { Cookie: cookie } : {}),
        },
        redirect: 'follow',
        signal: controller.signal,
      });
      for (const line of response.headers.getSetCookie()) {
        const parsed = parseSetCookie(line);
        if (!parsed) continue;
        if (parsed.expired) this.jar.delete(parsed.name);
        else this.jar.set(parsed.name, parsed.value);
      }
      return response;
    } catch (error) {
      throw failure ?? error;
    } finally {
      if (timer) clearTimeout(timer);
      if (request.abortSignal) request.abortSignal.onabort = null;
    }
  }
}
