import { type IncomingMessage } from 'node:http';
import { type Duplex } from 'node:stream';
import { type RawData, type WebSocketServer } from 'ws';
import { type Clock } from '../shared/clock.js';
import { isMessageTooBig } from './frame-limits.js';
import { type Connection, type Hub } from './hub.js';
import { type Issued } from './negotiate.js';
import { parseCookieHeader, refuse } from './protocol.js';
import { type SimState } from './state.js';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface UpgradeOptions {
  state: SimState;
  issued: Map<string, Issued>;
  hub: Hub;
  wss: WebSocketServer;
  now: Clock;
  onMessage: (conn: Connection, data: RawData, isBinary: boolean) => void;
}

/** The WebSocket upgrade on `path`: only with a token negotiate issued, once, and its cookie if required. */
export function createUpgradeHandler(path: string, options: UpgradeOptions): UpgradeHandler {
  const { state, issued, hub, wss, now, onMessage } = options;
  return (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    if (url.pathname !== path || state.closed) return;
    state.count('upgrades');
    if (state.mode === 'down') {
      state.count('refused-down');
      refuse(socket, 503, 'Service Unavailable', 'Service Unavailable');
      return;
    }
    const id = url.searchParams.get('id');
    const entry = id ? issued.get(id) : undefined;
    if (!entry) {
      state.count('refused-unknown-id');
      refuse(socket, 404, 'Not Found', 'No Connection with that ID');
      return;
    }
    if (entry.used) {
      state.count('refused-reused-id');
      refuse(socket, 409, 'Conflict', 'Connection ID already in use');
      return;
    }
    if (state.cookieRequired) {
      const cookies = parseCookieHeader(req.headers.cookie);
      if (cookies.get('AWSALB') !== entry.cookie && cookies.get('AWSALBCORS') !== entry.cookie) {
        // Without the sticky cookie the load balancer picks a node that does not know the token.
        state.count('refused-no-cookie');
        refuse(socket, 404, 'Not Found', 'No Connection with that ID');
        return;
      }
    }
    entry.used = true;
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: Connection = {
        id: entry.token,
        socket: ws,
        since: now(),
        buffer: '',
        handshaken: false,
        topics: new Set(),
        authorized: typeof req.headers.authorization === 'string' && req.headers.authorization !== '',
        held: [],
        framesSent: 0,
      };
      hub.connections.set(conn.id, conn);
      state.count('connections');
      ws.on('message', (data, isBinary) => onMessage(conn, data, isBinary));
      ws.on('close', () => hub.forget(conn.id));
      ws.on('error', (error) => {
        if (isMessageTooBig(error)) state.count('closed-too-big');
        hub.connections.delete(conn.id);
        conn.buffer = '';
        // ws has already started a close handshake with the error's code (1009, 1007…): let
        // that frame reach the client rather than cut the socket under it.
        if (ws.readyState !== ws.CLOSING) ws.terminate();
      });
    });
  };
}
