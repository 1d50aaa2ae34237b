// How the local bridge answers one request: only its own Host names, CORS for the web app's origin,
// the status page and its script, the status, and state changes from trusted origins only.
import type http from 'node:http';
import { ACTION_ROUTES } from './action-routes.js';
import { readJsonInput, send } from './bridge-http.js';
import type { BridgeActions } from './bridge-types.js';
import { STATUS_PAGE_HTML, STATUS_PAGE_SCRIPT } from './status-page.js';

export type BridgeHandler = (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;

export function createBridgeHandler(options: {
  /** The port listened on (known once listening). */
  port: () => number;
  appOrigins: readonly string[];
  actions: BridgeActions;
}): BridgeHandler {
  const { actions } = options;
  const allowedHosts = () => new Set([`127.0.0.1:${options.port()}`, `localhost:${options.port()}`]);
  const ownOrigins = () =>
    new Set([`http://127.0.0.1:${options.port()}`, `http://localhost:${options.port()}`]);
  const appOrigins = new Set(options.appOrigins.map((origin) => origin.toLowerCase()));

  return async (request, response) => {
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
      answerPreflight(request, response, fromApp);
      return;
    }
    if (method === 'GET' && serveGet(url.pathname, response, actions)) return;
    if (method === 'POST') {
      // State changes: the app's pages and the status page only. A request without an Origin comes
      // from a program on this computer (curl, scripts), never from a web page.
      if (origin !== null && !fromApp && !fromSelf) {
        send(response, 403, { error: 'This origin may not use the companion.', code: 'forbidden' });
        return;
      }
      const input = await readJsonInput(request, response);
      if (input === null) return;
      const route = ACTION_ROUTES.get(url.pathname);
      if (route) {
        await route(input, {
          actions,
          response,
          fromApp,
          mayChangeHomeAssistantToken: origin === null || fromSelf,
          fromPageOrProgram: origin === null || fromSelf,
        });
        return;
      }
    }
    send(response, 404, { error: 'Not found', code: 'not_found' });
  };
}

function answerPreflight(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  fromApp: boolean,
): void {
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
}

/** The status page, its script and the status; false for any other path. */
function serveGet(pathname: string, response: http.ServerResponse, actions: BridgeActions): boolean {
  if (pathname === '/') {
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    response.end(STATUS_PAGE_HTML);
    return true;
  }
  if (pathname === '/status.js') {
    response.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(STATUS_PAGE_SCRIPT);
    return true;
  }
  if (pathname === '/api/status') {
    send(response, 200, actions.status());
    return true;
  }
  return false;
}
