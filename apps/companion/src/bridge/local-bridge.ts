import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanShownText } from '../lights/light-label.js';
import { STATUS_PAGE_HTML, STATUS_PAGE_SCRIPT } from './status-page.js';

/** The companion's well-known local port (DESIGN §5.9); `--port` overrides. */
export const DEFAULT_BRIDGE_PORT = 47920;
const MAX_BODY_BYTES = 4_096;

export interface BridgeStatus {
  version: string;
  platform: NodeJS.Platform;
  linked: boolean;
  [key: string]: unknown;
}

export interface BridgeActions {
  status(): BridgeStatus;
  /** Plays one flag's effect now; false for an unknown state. */
  test(state: string): boolean;
  setPaused(paused: boolean): void;
  rescan(): Promise<void>;
  /** Pairs a Hue bridge (link button); resolves when paired or refused. */
  pairHue(url: string | undefined): Promise<{ ok: true; name: string } | { ok: false; error: string }>;
  /** Pairs a Nanoleaf controller (power button held 5–7 s); resolves when paired or timed out. */
  pairNanoleaf(
    address: string | undefined,
  ): Promise<{ ok: true; name: string } | { ok: false; error: string }>;
  /** Unpairs a Nanoleaf controller by its id (its token and its driver go); null for an unknown id. */
  forgetNanoleaf(id: string): Promise<{ name: string } | null>;
  /** Forgets the link (the `unlink` command talking to the running companion). */
  unlink(): Promise<void>;
  /** Checks and keeps a Home Assistant access token (entered on the status page only). */
  saveHomeAssistantToken?(token: string): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Drops the saved Home Assistant token. */
  forgetHomeAssistantToken?(): Promise<void>;
}

export interface LocalBridgeOptions {
  port: number;
  /** The web app's origin(s): the only pages allowed to read the status and ask for a test. */
  appOrigins: readonly string[];
  actions: BridgeActions;
  host?: string;
}

/** The web app's origins for a server URL: a developer's machine reaches it as 127.0.0.1 or localhost alike. */
export function appOriginsFor(server: string): string[] {
  const url = new URL(server);
  if (url.hostname === '127.0.0.1') return [url.origin, url.origin.replace('127.0.0.1', 'localhost')];
  if (url.hostname === 'localhost') return [url.origin, url.origin.replace('localhost', '127.0.0.1')];
  return [url.origin];
}

export interface LocalBridge {
  port: number;
  url: string;
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
}

/**
 * The local bridge on `http://127.0.0.1:<port>` (DESIGN §9): a status page and a small JSON API for
 * the web app on the same computer. It trusts no web page by default: only the Host names
 * `127.0.0.1:<port>` and `localhost:<port>` (a DNS-rebinding page carries its own name), CORS and
 * state changes only from the app's origin or the status page itself, JSON bodies only (a form post
 * from another site cannot pass), and it never exposes the device token.
 */
export async function startLocalBridge(options: LocalBridgeOptions): Promise<LocalBridge> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, { error: 'Something went wrong', code: 'internal' });
      else response.destroy();
    });
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;

  let port = options.port;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const ownOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const appOrigins = new Set(options.appOrigins.map((origin) => origin.toLowerCase()));

  /**
   * The Home Assistant token is saved and forgotten by one rule: on the status page (its own origin)
   * or by a program on this computer (no Origin). A web page, the app's included, does neither.
   */
  const mayChangeHomeAssistantToken = (origin: string | null) => origin === null || ownOrigins().has(origin);

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const hostHeader = (request.headers.host ?? '').toLowerCase();
    if (!allowedHosts().has(hostHeader)) {
      send(response, 421, { error: 'This address is not served here.', code: 'forbidden' });
      return;
    }
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin.toLowerCase() : null;
    const fromApp = origin !== null && appOrigins.has(origin);
    const fromSelf = origin !== null && ownOrigins().has(origin);
    if (fromApp) {
      response.setHeader('access-control-allow-origin', origin);
      response.setHeader('vary', 'Origin');
    }
    const url = new URL(request.url ?? '/', `http://${hostHeader}`);
    const method = request.method ?? 'GET';

    if (method === 'OPTIONS') {
      if (!fromApp) {
        send(response, 403, { error: 'This origin may not use the companion.', code: 'forbidden' });
        return;
      }
      response.setHeader('access-control-allow-methods', 'GET, POST');
      response.setHeader('access-control-allow-headers', 'content-type');
      response.setHeader('access-control-max-age', '600');
      // Private Network Access (older Chrome): a public page's preflight to loopback asks this.
      if (request.headers['access-control-request-private-network'] === 'true') {
        response.setHeader('access-control-allow-private-network', 'true');
      }
      response.writeHead(204).end();
      return;
    }

    if (method === 'GET' && url.pathname === '/') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      response.end(STATUS_PAGE_HTML);
      return;
    }
    if (method === 'GET' && url.pathname === '/status.js') {
      response.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
      });
      response.end(STATUS_PAGE_SCRIPT);
      return;
    }
    if (method === 'GET' && url.pathname === '/api/status') {
      send(response, 200, options.actions.status());
      return;
    }

    if (method === 'POST') {
      // State changes: the app's pages and the status page only. A request without an Origin comes
      // from a program on this computer (curl, scripts), never from a web page.
      if (origin !== null && !fromApp && !fromSelf) {
        send(response, 403, { error: 'This origin may not use the companion.', code: 'forbidden' });
        return;
      }
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (contentType !== 'application/json') {
        send(response, 415, { error: 'Send JSON (Content-Type: application/json).', code: 'invalid_input' });
        return;
      }
      const body = await readJson(request);
      if (!body.ok) {
        send(response, body.status, { error: body.error, code: 'invalid_input' });
        return;
      }
      const input = (body.value ?? {}) as Record<string, unknown>;
      switch (url.pathname) {
        case '/api/test': {
          if (typeof input.state !== 'string' || input.state.length > 40) {
            send(response, 400, {
              error: 'state must be a flag name such as "yellow".',
              code: 'invalid_input',
            });
            return;
          }
          if (!options.actions.test(input.state)) {
            if (options.actions.status().paused === true)
              send(response, 409, {
                error: 'The lights are paused: Resume lights to test them.',
                code: 'paused',
              });
            else send(response, 400, { error: `Unknown flag "${input.state}".`, code: 'invalid_input' });
            return;
          }
          send(response, 200, { success: true });
          return;
        }
        case '/api/pause': {
          if (typeof input.paused !== 'boolean') {
            send(response, 400, { error: 'paused must be true or false.', code: 'invalid_input' });
            return;
          }
          options.actions.setPaused(input.paused);
          send(response, 200, { success: true, paused: input.paused });
          return;
        }
        case '/api/lights/rescan': {
          await options.actions.rescan();
          send(response, 200, { success: true });
          return;
        }
        case '/api/hue/pair': {
          const target = input.url;
          if (target !== undefined && (typeof target !== 'string' || !/^https:\/\/[^\s/]+$/i.test(target))) {
            send(response, 400, { error: 'url must look like https://192.168.1.20', code: 'invalid_input' });
            return;
          }
          const result = await options.actions.pairHue(target);
          if (result.ok) send(response, 200, { success: true, name: result.name });
          else send(response, 409, { error: result.error, code: 'conflict' });
          return;
        }
        case '/api/nanoleaf/pair': {
          const target = input.address;
          if (
            target !== undefined &&
            (typeof target !== 'string' ||
              !/^(http:\/\/)?(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?\/?$/i.test(target))
          ) {
            send(response, 400, {
              error: 'address must look like 192.168.1.30 or 192.168.1.30:16021',
              code: 'invalid_input',
            });
            return;
          }
          const result = await options.actions.pairNanoleaf(target);
          if (result.ok) send(response, 200, { success: true, name: result.name });
          else send(response, 409, { error: result.error, code: 'conflict' });
          return;
        }
        case '/api/nanoleaf/forget': {
          const id = input.id;
          if (typeof id !== 'string' || id === '' || id.length > 100) {
            send(response, 400, {
              error: 'id must be the id of a paired controller.',
              code: 'invalid_input',
            });
            return;
          }
          const forgotten = await options.actions.forgetNanoleaf(id);
          if (forgotten) send(response, 200, { success: true, name: forgotten.name });
          else
            send(response, 404, {
              error: 'No Nanoleaf controller with this id is paired with this companion.',
              code: 'not_found',
            });
          return;
        }
        case '/api/home-assistant/token': {
          if (!mayChangeHomeAssistantToken(origin) || !options.actions.saveHomeAssistantToken) {
            send(response, 403, {
              error: "Enter the token on the companion's status page.",
              code: 'forbidden',
            });
            return;
          }
          if (typeof input.token !== 'string' || input.token.length > 4_096) {
            send(response, 400, {
              error: 'token must be the long-lived access token.',
              code: 'invalid_input',
            });
            return;
          }
          const saved = await options.actions.saveHomeAssistantToken(input.token);
          if (saved.ok) send(response, 200, { success: true });
          else send(response, 409, { error: saved.error, code: 'conflict' });
          return;
        }
        case '/api/home-assistant/forget': {
          if (!mayChangeHomeAssistantToken(origin)) {
            send(response, 403, {
              error: "Forget the token on the companion's status page.",
              code: 'forbidden',
            });
            return;
          }
          await options.actions.forgetHomeAssistantToken?.();
          send(response, 200, { success: true });
          return;
        }
        case '/api/unlink': {
          // Only this computer's own programs and the status page: a web page never unlinks.
          if (fromApp) {
            send(response, 403, { error: 'Unlink the companion in Settings → Devices.', code: 'forbidden' });
            return;
          }
          await options.actions.unlink();
          send(response, 200, { success: true });
          return;
        }
        default:
          break;
      }
    }
    send(response, 404, { error: 'Not found', code: 'not_found' });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' ? new PortInUseError(`Port ${options.port} on ${host} is in use`) : error,
      );
    });
    server.listen(options.port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Every JSON answer: each text in it is cleaned like a light's label (`cleanShownText`). Names,
 * messages and errors quote devices, Home Assistant and the server, and what the page shows must
 * not carry a line break, a control or a bidi override from them.
 */
function send(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(
    JSON.stringify(body, (_key, value: unknown) =>
      typeof value === 'string' ? cleanShownText(value) : value,
    ),
  );
}

async function readJson(
  request: http.IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; error: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, error: 'Request body is too large' };
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, status: 400, error: 'Send a JSON object' };
    }
    return { ok: true, value };
  } catch {
    return { ok: false, status: 400, error: 'Malformed JSON in request body' };
  }
}

/** Asks whether a Flaglight Companion already answers on this port (a second start). */
export async function probeCompanion(port: number): Promise<BridgeStatus | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/status`, {
      signal: AbortSignal.timeout(1_500),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as Partial<BridgeStatus>;
    return typeof body.version === 'string' && typeof body.linked === 'boolean'
      ? (body as BridgeStatus)
      : null;
  } catch {
    return null;
  }
}
