import { randomBytes, randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server as HttpServer } from 'node:http';
import { type Duplex } from 'node:stream';
import {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { systemClock } from '../shared/clock.js';
import { registerF1LiveControlRoutes } from './control-routes.js';
import {
  CLOSE_MESSAGE_TOO_BIG,
  F1LIVE_MAX_MESSAGE_BYTES,
  isMessageTooBig,
  takeFrames,
} from './frame-limits.js';
import { deflateTopic, frame, garbageMessages, MessageType, parseCookieHeader, refuse } from './protocol.js';
import {
  emptyRecording,
  type FeedEvent,
  type FeedRecord,
  formatStreamOffset,
  loadRecording,
  type Recording,
  withKeys,
} from './recording.js';
import {
  F1LIVE_DEMO_FIXTURE,
  F1LIVE_GATED_TOPICS,
  F1LIVE_HEARTBEAT_INTERVAL_MS,
  F1LIVE_MESSAGE_FAULTS,
  F1LIVE_MODES,
  F1LIVE_PING_INTERVAL_MS,
  F1LIVE_THROTTLE_RETRY_AFTER_S,
  type F1LiveMessageFault,
  type F1LiveMode,
  type F1LiveSim,
  type F1LiveSimControl,
  type F1LiveSimOptions,
} from './types.js';

interface Issued {
  token: string;
  cookie: string;
  used: boolean;
  at: number;
}

interface Connection {
  id: string;
  socket: WebSocket;
  since: number;
  buffer: string;
  handshaken: boolean;
  topics: Set<string>;
  authorized: boolean;
  held: string[];
  framesSent: number;
}

/** Frames per WebSocket message at most: several per message, as the real feed batches them. */
const FRAMES_PER_MESSAGE = 4;

const REPLAYED_DEFAULTS: Record<string, FeedRecord> = {
  TrackStatus: { Status: '1', Message: 'AllClear' },
  SessionStatus: { Status: 'Inactive' },
};

function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** Builds the F1 live-timing (SignalR Core) simulator. Serve it with `plugin`; see README. */
export function createF1LiveSim(options: F1LiveSimOptions = {}): F1LiveSim {
  const now = options.now ?? systemClock;
  const pingMs = options.pingIntervalMs ?? F1LIVE_PING_INTERVAL_MS;
  const heartbeatMs = options.heartbeatIntervalMs ?? F1LIVE_HEARTBEAT_INTERVAL_MS;
  const snapshotDelayMs = options.snapshotDelayMs ?? 0;
  let mode: F1LiveMode = options.mode ?? 'normal';
  let messageFault: F1LiveMessageFault = 'none';
  /** `reorder`: per connection, the race-control frame held back until the next one is sent. */
  const heldMessage = new Map<string, string>();
  let cookieRequired = options.requireCookie ?? false;

  let recording: Recording = loadRecording(options.fixture ?? F1LIVE_DEMO_FIXTURE);
  /** Added to every feed time and race-control `Utc` (a mirrored replay happens now, not in 2021). */
  let shiftMs = 0;
  /** The mirrored session key, so a re-timed mirror of the same session keeps its sockets. */
  let mirroredKey: number | null = null;
  let speed = options.speed ?? 1;
  let basePos = options.positionMs ?? 0;
  let baseAt = now();
  /** Index of the next event to send. */
  let cursor = 0;

  const issued = new Map<string, Issued>();
  const connections = new Map<string, Connection>();
  const counts: Record<string, number> = {};
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: F1LIVE_MAX_MESSAGE_BYTES,
  });
  const upgradeHandlers = new Map<HttpServer, (req: IncomingMessage, socket: Duplex, head: Buffer) => void>();
  let timer: NodeJS.Timeout | null = null;
  let pingTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const count = (what: string) => {
    counts[what] = (counts[what] ?? 0) + 1;
  };

  function position(at = now()): number {
    return Math.min(recording.lengthMs, Math.max(0, basePos + (at - baseAt) * speed));
  }

  function feedTimeAt(pos: number): string {
    return isoAt(recording.streamStartMs + pos + shiftMs);
  }

  /** A race-control record as sent: its `Utc` moved by the mirror's shift, in the feed's own format. */
  function outward(event: FeedEvent): FeedRecord {
    if (shiftMs === 0 || event.topic !== 'RaceControlMessages' || typeof event.value.Utc !== 'string') {
      return event.value;
    }
    const utc = event.value.Utc;
    const ms = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(utc) ? utc : `${utc}Z`);
    if (Number.isNaN(ms)) return event.value;
    return { ...event.value, Utc: new Date(ms + shiftMs).toISOString().replace(/(\.000)?Z$/, '') };
  }

  function eventsBefore(pos: number): number {
    let n = 0;
    while (n < recording.events.length && recording.events[n]!.offsetMs <= pos) n += 1;
    return n;
  }

  function rebase(pos: number): void {
    basePos = pos;
    baseAt = now();
  }

  /** Topic states after the first `n` events, in the snapshot's shape (Messages as a list). */
  function stateAfter(n: number): Record<string, FeedRecord> {
    const state: Record<string, FeedRecord> = { SessionStatus: { ...REPLAYED_DEFAULTS.SessionStatus } };
    // A recording without TrackStatus lines has no TrackStatus topic: an invented AllClear would
    // tell clients the track is green when only race control knows.
    if (recording.events.some((event) => event.topic === 'TrackStatus')) {
      state.TrackStatus = { ...REPLAYED_DEFAULTS.TrackStatus };
    }
    const messages: FeedRecord[] = [];
    for (const event of recording.events.slice(0, n)) {
      if (event.topic === 'RaceControlMessages') messages[event.index ?? messages.length] = outward(event);
      else state[event.topic] = { ...state[event.topic], ...event.value };
    }
    state.RaceControlMessages = { Messages: Array.from(messages, (m) => m ?? {}) };
    return state;
  }

  function snapshot(topics: string[], authorized: boolean): Record<string, unknown> {
    const pos = position();
    const state = stateAfter(eventsBefore(pos));
    const feedTime = feedTimeAt(pos);
    const all: Record<string, unknown> = {
      ...state,
      SessionInfo: recording.sessionInfo,
      Heartbeat: { Utc: feedTime },
      ExtrapolatedClock: { Utc: feedTime, Remaining: '00:00:00', Extrapolating: false },
    };
    const result: Record<string, unknown> = {};
    for (const topic of topics) {
      if (topic in all) result[topic] = { ...(all[topic] as FeedRecord), _kf: true };
      else if ((F1LIVE_GATED_TOPICS as readonly string[]).includes(topic) && authorized) {
        result[topic] = deflateTopic({ Entries: [], _kf: true });
      }
    }
    return result;
  }

  function feedFrame(topic: string, data: unknown, feedTime: string): string {
    return frame({ type: MessageType.Invocation, target: 'feed', arguments: [topic, data, feedTime] });
  }

  function updateOf(event: FeedEvent): unknown {
    return event.topic === 'RaceControlMessages'
      ? { Messages: { [String(event.index ?? 0)]: outward(event) } }
      : event.value;
  }

  /** Sends frames to one connection, several per WebSocket message, none split; held while stalled. */
  function send(conn: Connection, frames: string[]): void {
    if (frames.length === 0) return;
    const messages: string[] = [];
    for (let i = 0; i < frames.length; i += FRAMES_PER_MESSAGE) {
      messages.push(frames.slice(i, i + FRAMES_PER_MESSAGE).join(''));
    }
    if (mode === 'stall') {
      conn.held.push(...messages);
      return;
    }
    for (const message of [...conn.held.splice(0), ...messages]) {
      if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
    }
    conn.framesSent += frames.length;
  }

  function broadcastDue(): void {
    const pos = position();
    const due: FeedEvent[] = [];
    while (cursor < recording.events.length && recording.events[cursor]!.offsetMs <= pos) {
      due.push(recording.events[cursor]!);
      cursor += 1;
    }
    if (due.length === 0) return;
    for (const conn of connections.values()) {
      const frames: string[] = [];
      for (const event of due) {
        if (!conn.topics.has(event.topic)) continue;
        const f = feedFrame(event.topic, updateOf(event), feedTimeAt(event.offsetMs));
        if (event.topic !== 'RaceControlMessages' || messageFault === 'none') frames.push(f);
        else if (messageFault === 'duplicate') frames.push(f, f);
        else {
          const held = heldMessage.get(conn.id);
          if (held === undefined) heldMessage.set(conn.id, f);
          else {
            frames.push(f, held);
            heldMessage.delete(conn.id);
          }
        }
      }
      send(conn, frames);
    }
  }

  function schedule(): void {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = null;
    const next = recording.events[cursor];
    if (!next || speed <= 0) return;
    const wait = Math.max(0, (next.offsetMs - position()) / speed);
    timer = setTimeout(
      () => {
        timer = null;
        broadcastDue();
        schedule();
      },
      Math.min(wait, 60_000),
    );
    timer.unref();
  }

  function heartbeat(): void {
    const feedTime = feedTimeAt(position());
    for (const conn of connections.values()) {
      if (!conn.handshaken) continue;
      const frames: string[] = [];
      if (conn.topics.has('Heartbeat')) frames.push(feedFrame('Heartbeat', { Utc: feedTime }, feedTime));
      if (conn.authorized && conn.topics.has('CarData.z')) {
        frames.push(
          feedFrame('CarData.z', deflateTopic({ Entries: [{ Utc: feedTime, Cars: {} }] }), feedTime),
        );
      }
      send(conn, frames);
      if (mode === 'garbage') sendGarbage(conn, feedTime);
    }
  }

  function sendGarbage(conn: Connection, feedTime: string): void {
    for (const message of garbageMessages(feedTime)) {
      if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
    }
    count('garbage-bursts');
  }

  function ping(): void {
    for (const conn of connections.values()) {
      if (conn.handshaken) send(conn, [frame({ type: MessageType.Ping })]);
    }
  }

  function startTimers(): void {
    pingTimer = setInterval(ping, pingMs);
    pingTimer.unref();
    heartbeatTimer = setInterval(heartbeat, heartbeatMs);
    heartbeatTimer.unref();
    cursor = eventsBefore(position());
    schedule();
  }

  function closeConnection(
    conn: Connection,
    close: { error?: string; allowReconnect?: boolean } | null,
  ): void {
    connections.delete(conn.id);
    if (close === null) {
      conn.socket.terminate();
      return;
    }
    const message: Record<string, unknown> = { type: MessageType.Close };
    if (close.error !== undefined) message.error = close.error;
    if (close.allowReconnect !== undefined) message.allowReconnect = close.allowReconnect;
    if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(frame(message));
    conn.socket.close(1000);
  }

  function onFrame(conn: Connection, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      count('bad-frames');
      closeConnection(conn, {
        error: 'Connection closed with an error. InvalidDataException: invalid JSON.',
      });
      return;
    }
    const m = (message ?? {}) as Record<string, unknown>;
    if (!conn.handshaken) {
      if (typeof m.protocol !== 'string' || m.type !== undefined) {
        // Anything before the handshake request: the server just closes.
        count('no-handshake');
        closeConnection(conn, null);
        return;
      }
      if (m.protocol !== 'json' || m.version !== 1) {
        count('bad-handshake');
        conn.socket.send(
          frame({ error: `The protocol '${m.protocol}' version ${String(m.version)} is not supported.` }),
        );
        closeConnection(conn, { error: 'handshake refused' });
        return;
      }
      conn.handshaken = true;
      send(conn, [frame({})]);
      return;
    }
    if (m.type === MessageType.Ping) return;
    if (m.type === MessageType.Close) {
      closeConnection(conn, null);
      return;
    }
    if (m.type !== MessageType.Invocation) return;
    const invocationId = typeof m.invocationId === 'string' ? m.invocationId : null;
    const target = typeof m.target === 'string' ? m.target : '';
    if (target.toLowerCase() !== 'subscribe') {
      if (invocationId) {
        send(conn, [
          frame({ type: MessageType.Completion, invocationId, error: `Unknown hub method '${target}'` }),
        ]);
      }
      return;
    }
    const args = Array.isArray(m.arguments) ? (m.arguments as unknown[]) : [];
    const list = Array.isArray(args[0]) ? args[0] : [];
    const topics = list.filter((t): t is string => typeof t === 'string');
    count('subscribes');
    const reply = () => {
      if (!connections.has(conn.id)) return;
      for (const topic of topics) conn.topics.add(topic);
      // The snapshot is taken when it is sent: later events reach this connection as feed frames.
      broadcastDue();
      if (invocationId) {
        send(conn, [
          frame({ type: MessageType.Completion, invocationId, result: snapshot(topics, conn.authorized) }),
        ]);
      }
    };
    if (snapshotDelayMs > 0) setTimeout(reply, snapshotDelayMs).unref();
    else reply();
  }

  function onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    // Closed from this side but still draining: what the client sends meanwhile is dropped unread.
    if (!connections.has(conn.id)) return;
    if (isBinary) {
      closeConnection(conn, { error: 'binary frames are not supported' });
      return;
    }
    const taken = takeFrames(conn.buffer, data);
    if (!taken.ok) {
      count('closed-too-big');
      conn.buffer = '';
      connections.delete(conn.id);
      conn.socket.close(CLOSE_MESSAGE_TOO_BIG, 'Message Too Big');
      return;
    }
    conn.buffer = taken.rest;
    for (const f of taken.frames) {
      if (!connections.has(conn.id)) return;
      onFrame(conn, f);
    }
  }

  function handleUpgrade(path: string) {
    return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
      const url = new URL(req.url ?? '/', 'http://sim');
      if (url.pathname !== path || closed) return;
      count('upgrades');
      if (mode === 'down') {
        count('refused-down');
        refuse(socket, 503, 'Service Unavailable', 'Service Unavailable');
        return;
      }
      const id = url.searchParams.get('id');
      const entry = id ? issued.get(id) : undefined;
      if (!entry) {
        count('refused-unknown-id');
        refuse(socket, 404, 'Not Found', 'No Connection with that ID');
        return;
      }
      if (entry.used) {
        count('refused-reused-id');
        refuse(socket, 409, 'Conflict', 'Connection ID already in use');
        return;
      }
      if (cookieRequired) {
        const cookies = parseCookieHeader(req.headers.cookie);
        if (cookies.get('AWSALB') !== entry.cookie && cookies.get('AWSALBCORS') !== entry.cookie) {
          // Without the sticky cookie the load balancer picks a node that does not know the token.
          count('refused-no-cookie');
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
        connections.set(conn.id, conn);
        count('connections');
        ws.on('message', (data, isBinary) => onMessage(conn, data, isBinary));
        ws.on('close', () => {
          connections.delete(conn.id);
          heldMessage.delete(conn.id);
        });
        ws.on('error', (error) => {
          if (isMessageTooBig(error)) count('closed-too-big');
          connections.delete(conn.id);
          conn.buffer = '';
          // ws has already started a close handshake with the error's code (1009, 1007…): let
          // that frame reach the client rather than cut the socket under it.
          if (ws.readyState !== ws.CLOSING) ws.terminate();
        });
      });
    };
  }

  function stickyCookies(request: FastifyRequest, reply: FastifyReply): string {
    const sent = parseCookieHeader(request.headers.cookie);
    const known = [...issued.values()].some((i) => i.cookie === sent.get('AWSALB'));
    const value = known ? (sent.get('AWSALB') ?? '') : randomBytes(24).toString('base64url');
    reply.header('set-cookie', [
      `AWSALBCORS=${value}; Expires=${new Date(now() + 7 * 86_400_000).toUTCString()}; Path=/; SameSite=None; Secure`,
      `AWSALB=${value}; Expires=${new Date(now() + 7 * 86_400_000).toUTCString()}; Path=/`,
    ]);
    return value;
  }

  function negotiate(request: FastifyRequest, reply: FastifyReply): unknown {
    count('negotiations');
    if (mode === 'throttle') {
      count('refused-throttled');
      return reply
        .code(429)
        .header('retry-after', String(F1LIVE_THROTTLE_RETRY_AFTER_S))
        .type('text/plain')
        .send('Too Many Requests');
    }
    if (mode === 'down')
      return reply
        .code(503)
        .type('text/html')
        .send('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
    const cookie = stickyCookies(request, reply);
    const query = request.query as Record<string, string | undefined>;
    const version = Number(query.negotiateVersion ?? 0) >= 1 ? 1 : 0;
    const connectionId = randomBytes(16).toString('base64url');
    const connectionToken = version === 1 ? randomUUID() : connectionId;
    issued.set(connectionToken, { token: connectionToken, cookie, used: false, at: now() });
    if (issued.size > 10_000) issued.delete(issued.keys().next().value!);
    const transports = [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }];
    return version === 1
      ? { negotiateVersion: 1, connectionId, connectionToken, availableTransports: transports }
      : { negotiateVersion: 0, connectionId, availableTransports: transports };
  }

  const control: F1LiveSimControl = {
    state() {
      const pos = position();
      return {
        mode,
        messageFault,
        requireCookie: cookieRequired,
        replay: {
          fixture: recording.id,
          speed,
          positionMs: Math.round(pos),
          position: formatStreamOffset(pos),
          lengthMs: recording.lengthMs,
          feedTime: feedTimeAt(pos),
          eventsSent: cursor,
          events: recording.events.length,
        },
        connections: [...connections.values()].map((c) => ({
          id: c.id,
          since: isoAt(c.since),
          handshaken: c.handshaken,
          topics: [...c.topics],
          authorized: c.authorized,
          framesSent: c.framesSent,
        })),
        counts: { ...counts },
      };
    },
    setMode(next) {
      if (!F1LIVE_MODES.includes(next)) throw new Error(`mode must be one of ${F1LIVE_MODES.join(', ')}`);
      const previous = mode;
      mode = next;
      if (next === 'down') for (const conn of [...connections.values()]) closeConnection(conn, null);
      if (previous === 'stall' && next !== 'stall') {
        // Like a network black hole that heals: what was held arrives at once.
        for (const conn of connections.values()) {
          for (const message of conn.held.splice(0)) {
            if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
          }
        }
      }
      if (next === 'garbage') {
        const feedTime = feedTimeAt(position());
        for (const conn of connections.values()) if (conn.handshaken) sendGarbage(conn, feedTime);
      }
    },
    setMessageFault(fault) {
      if (!F1LIVE_MESSAGE_FAULTS.includes(fault)) {
        throw new Error(`messageFault must be one of ${F1LIVE_MESSAGE_FAULTS.join(', ')}`);
      }
      messageFault = fault;
      if (fault !== 'reorder') {
        // A held message is not lost: it goes out now, late.
        for (const [id, held] of heldMessage) {
          const conn = connections.get(id);
          if (conn) send(conn, [held]);
        }
        heldMessage.clear();
      }
    },
    requireCookie(required) {
      cookieRequired = required;
    },
    replay(o) {
      const next = loadRecording(o.fixture);
      const nextSpeed = o.speed ?? speed;
      if (!Number.isFinite(nextSpeed) || nextSpeed < 0) throw new Error('speed must be a number ≥ 0');
      recording = next;
      shiftMs = 0;
      mirroredKey = null;
      speed = nextSpeed;
      rebase(Math.max(0, o.positionMs ?? 0));
      cursor = eventsBefore(position());
      for (const conn of [...connections.values()]) {
        closeConnection(conn, { error: 'a new session', allowReconnect: true });
      }
      schedule();
      return control.state().replay;
    },
    mirror(target) {
      if (target === null) {
        recording = emptyRecording();
        mirroredKey = null;
        shiftMs = 0;
        speed = 0;
        rebase(0);
        cursor = 0;
        for (const conn of [...connections.values()]) {
          closeConnection(conn, { error: 'no session', allowReconnect: true });
        }
        schedule();
        return;
      }
      if (!Number.isFinite(target.speed) || target.speed < 0) throw new Error('speed must be a number ≥ 0');
      const sameSession = mirroredKey === target.sessionKey && recording.id === target.fixture;
      if (!sameSession)
        recording = withKeys(loadRecording(target.fixture), target.sessionKey, target.meetingKey);
      const pos = Math.max(0, target.originalAtMs - recording.streamStartMs);
      shiftMs = now() - (recording.streamStartMs + pos);
      speed = target.speed;
      rebase(pos);
      if (!sameSession) {
        mirroredKey = target.sessionKey;
        cursor = eventsBefore(position());
        for (const conn of [...connections.values()]) {
          closeConnection(conn, { error: 'a new session', allowReconnect: true });
        }
      }
      schedule();
    },
    setSpeed(next) {
      if (!Number.isFinite(next) || next < 0) throw new Error('speed must be a number ≥ 0');
      rebase(position());
      speed = next;
      schedule();
    },
    closeAll(o = {}) {
      const list = [...connections.values()];
      for (const conn of list) {
        closeConnection(conn, {
          error: o.error ?? 'Server is shutting down.',
          allowReconnect: o.allowReconnect ?? true,
        });
      }
      return list.length;
    },
    dropAll() {
      const list = [...connections.values()];
      for (const conn of list) closeConnection(conn, null);
      return list.length;
    },
    tick() {
      broadcastDue();
      schedule();
    },
  };

  const plugin: FastifyPluginAsync = async (app: FastifyInstance) => {
    const upgradePath = `${app.prefix}/signalrcore`;
    if (!upgradeHandlers.has(app.server)) {
      const handler = handleUpgrade(upgradePath);
      upgradeHandlers.set(app.server, handler);
      app.server.on('upgrade', handler);
    }
    app.addHook('preClose', async () => {
      const handler = upgradeHandlers.get(app.server);
      if (handler) app.server.off('upgrade', handler);
      upgradeHandlers.delete(app.server);
      if (upgradeHandlers.size === 0) await close();
    });

    app.options('/signalrcore/negotiate', async (request, reply) => {
      count('preflights');
      if (mode === 'down') return reply.code(503).send('Service Unavailable');
      stickyCookies(request, reply);
      return reply
        .code(204)
        .header('access-control-allow-methods', 'POST, OPTIONS')
        .header('access-control-allow-credentials', 'true')
        .send();
    });
    app.post('/signalrcore/negotiate', async (request, reply) => negotiate(request, reply));
    app.get('/signalrcore/negotiate', async (_request, reply) =>
      reply.code(405).header('allow', 'POST, OPTIONS').send(''),
    );
    app.all('/signalr/negotiate', async (_request, reply) => reply.code(401).send(''));
    app.get('/signalrcore', async (request, reply) => {
      const id = (request.query as Record<string, string | undefined>).id;
      if (!id || !issued.has(id)) return reply.code(404).send('No Connection with that ID');
      return reply.code(400).send('WebSockets only');
    });

    if (options.controlRoutes ?? true) registerF1LiveControlRoutes(app, control);
  };

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    if (pingTimer) clearInterval(pingTimer);
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    for (const conn of [...connections.values()]) closeConnection(conn, null);
    wss.close();
  }

  startTimers();
  return { control, plugin, close };
}
