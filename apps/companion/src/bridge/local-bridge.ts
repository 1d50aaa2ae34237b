import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { send } from './bridge-http.js';
import { createBridgeHandler } from './bridge-requests.js';
import type { BridgeActions, BridgeStatus } from './bridge-types.js';

export type { BridgeActions, BridgeStatus } from './bridge-types.js';

/** The companion's well-known local port (DESIGN §5.9); `--port` overrides. */
export const DEFAULT_BRIDGE_PORT = 47920;

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
  const handle = createBridgeHandler({
    port: () => port,
    appOrigins: options.appOrigins,
    actions: options.actions,
  });

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
