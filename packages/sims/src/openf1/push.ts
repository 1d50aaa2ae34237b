import { type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { type Duplex } from 'node:stream';
import { Aedes, type AuthenticateError } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';

export { OPENF1_RACE_CONTROL_TOPIC as RACE_CONTROL_TOPIC } from '@flaglight/core';

/** Why a connection is refused, or null to accept it. MQTT CONNACK codes: 3 unavailable, 4 bad credentials. */
export type PushGate = (username: string | undefined, password: string | undefined) => 3 | 4 | 5 | null;

/** The MQTT side of the OpenF1 simulator: an aedes broker over plain TCP and over WebSocket. */
export class PushBroker {
  private tcp: NetServer | null = null;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly upgradeHandlers = new Map<
    HttpServer,
    (req: IncomingMessage, socket: Duplex, head: Buffer) => void
  >();
  private closed = false;
  private readonly sockets = new Set<Socket>();

  private constructor(readonly broker: Aedes) {
    this.wss.on('connection', (socket, req) => {
      const stream = createWebSocketStream(socket);
      stream.on('error', () => socket.terminate());
      broker.handle(stream, req);
    });
  }

  static async create(gate: PushGate): Promise<PushBroker> {
    const broker = await Aedes.createBroker({
      authenticate: (_client, username, password, done) => {
        const code = gate(username, password?.toString('utf8'));
        if (code === null) {
          done(null, true);
          return;
        }
        const error = Object.assign(new Error('Connection refused'), {
          returnCode: code,
        }) as AuthenticateError;
        done(error, false);
      },
      // Only the simulator publishes; clients may subscribe, never publish.
      authorizePublish: (client, _packet, callback) => {
        callback(client ? new Error('publishing is not allowed') : null);
      },
    });
    return new PushBroker(broker);
  }

  /** Listens for MQTT over TCP; resolves with the port (0 = a random free one). */
  async listenTcp(port: number, host: string): Promise<number> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      this.broker.handle(socket);
    });
    this.tcp = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  /** Serves MQTT over WebSocket on `path` of an HTTP server, leaving every other upgrade alone. */
  attachWebSocket(server: HttpServer, path: string): void {
    if (this.upgradeHandlers.has(server)) return;
    const handler = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
      const pathname = (req.url ?? '').split('?')[0];
      if (pathname !== path || this.closed) return;
      this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
    };
    this.upgradeHandlers.set(server, handler);
    server.on('upgrade', handler);
  }

  detachWebSocket(server: HttpServer): void {
    const handler = this.upgradeHandlers.get(server);
    if (handler) server.off('upgrade', handler);
    this.upgradeHandlers.delete(server);
  }

  publish(topic: string, payload: unknown): Promise<void> {
    return new Promise((resolve) => {
      this.broker.publish(
        { cmd: 'publish', topic, payload: JSON.stringify(payload), qos: 0, retain: false, dup: false },
        () => resolve(),
      );
    });
  }

  get connectedClients(): number {
    return this.broker.connectedClients;
  }

  /** Closes every client connection (the broker and listeners stay up; clients may reconnect). */
  dropClients(): number {
    const clients = (this.broker as unknown as { clients: Record<string, { close: () => void }> }).clients;
    const list = Object.values(clients);
    for (const client of list) client.close();
    for (const ws of this.wss.clients) ws.terminate();
    return list.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const server of [...this.upgradeHandlers.keys()]) this.detachWebSocket(server);
    await new Promise<void>((resolve) => this.broker.close(() => resolve()));
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    for (const socket of this.sockets) socket.destroy();
    const tcp = this.tcp;
    if (tcp) await new Promise<void>((resolve) => tcp.close(() => resolve()));
  }
}
