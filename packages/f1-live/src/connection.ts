import {
  type HubConnection,
  HubConnectionBuilder,
  HttpTransportType,
  type ILogger,
  LogLevel,
} from '@microsoft/signalr';
import WebSocket from 'ws';
import { CookieHttpClient } from './http-client.js';

/** What the public clients send (reference §2): some hosts refuse an empty User-Agent. */
export const DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  'User-Agent': 'BestHTTP',
  'Accept-Encoding': 'gzip,identity',
};

export interface ConnectionOptions {
  /** `https://livetiming.formula1.com/signalrcore` (the hub URL; negotiate is `<url>/negotiate`). */
  url: string;
  headers: Record<string, string>;
  /** The library closes the connection after this long without any frame (pings included). */
  serverTimeoutMs: number;
  /** Timeout of each negotiate request. */
  httpTimeoutMs: number;
  logger: ILogger;
}

type GlobalWithWebpack = typeof globalThis & {
  __webpack_require__?: unknown;
  __non_webpack_require__?: unknown;
};

/**
 * HttpConnection's constructor loads `ws` and `eventsource` with a `require` hidden behind
 * webpack's names, which no bundler follows: inside the companion's single executable there is
 * no node_modules and it throws. For the length of this synchronous call only, the indirection
 * answers with this package's `ws` (bundled with it) and no EventSource (WebSockets only: decision
 * 019); any previous values are restored.
 */
function withBundledRequire<T>(build: () => T): T {
  const g = globalThis as GlobalWithWebpack;
  const had = { webpack: g.__webpack_require__, nonWebpack: g.__non_webpack_require__ };
  if (typeof had.webpack === 'function') return build();
  g.__webpack_require__ = () => undefined;
  g.__non_webpack_require__ = (id: string) => (id === 'ws' ? WebSocket : undefined);
  try {
    return build();
  } finally {
    if (had.webpack === undefined) delete g.__webpack_require__;
    else g.__webpack_require__ = had.webpack;
    if (had.nonWebpack === undefined) delete g.__non_webpack_require__;
    else g.__non_webpack_require__ = had.nonWebpack;
  }
}

/** A fresh SignalR Core hub connection (WebSockets only, JSON protocol, no automatic reconnect). */
export function buildHubConnection(options: ConnectionOptions): {
  connection: HubConnection;
  http: CookieHttpClient;
} {
  const http = new CookieHttpClient(options.headers);
  const connection = withBundledRequire(() =>
    new HubConnectionBuilder()
      .withUrl(options.url, {
        transport: HttpTransportType.WebSockets,
        httpClient: http,
        headers: options.headers,
        timeout: options.httpTimeoutMs,
        logMessageContent: false,
      })
      .configureLogging(options.logger)
      .withServerTimeout(options.serverTimeoutMs)
      // The library pings every 15 s by default; the timeout must stay above the interval.
      .withKeepAliveInterval(Math.min(15_000, Math.max(1_000, Math.floor(options.serverTimeoutMs / 2))))
      .build(),
  );
  return { connection, http };
}

export { LogLevel };
