import { type RawData } from 'ws';
import { CLOSE_MESSAGE_TOO_BIG, takeFrames } from './frame-limits.js';
import { type Connection, type Hub } from './hub.js';
import { type Playback } from './playback.js';
import { frame, MessageType } from './protocol.js';
import { type SimState } from './state.js';

export interface MessageHandlerOptions {
  state: SimState;
  hub: Hub;
  playback: Playback;
  /** Delay before the Subscribe result (slow snapshots). */
  snapshotDelayMs: number;
}

/** What a client sends: the handshake, then pings, close and `Subscribe` invocations. */
export function createMessageHandler(
  options: MessageHandlerOptions,
): (conn: Connection, data: RawData, isBinary: boolean) => void {
  const { state, hub, playback, snapshotDelayMs } = options;
  const { connections } = hub;

  function onHandshake(conn: Connection, m: Record<string, unknown>): void {
    if (typeof m.protocol !== 'string' || m.type !== undefined) {
      // Anything before the handshake request: the server just closes.
      state.count('no-handshake');
      hub.closeConnection(conn, null);
      return;
    }
    if (m.protocol !== 'json' || m.version !== 1) {
      state.count('bad-handshake');
      conn.socket.send(
        frame({ error: `The protocol '${m.protocol}' version ${String(m.version)} is not supported.` }),
      );
      hub.closeConnection(conn, { error: 'handshake refused' });
      return;
    }
    conn.handshaken = true;
    hub.send(conn, [frame({})]);
  }

  function onInvocation(conn: Connection, m: Record<string, unknown>): void {
    const invocationId = typeof m.invocationId === 'string' ? m.invocationId : null;
    const target = typeof m.target === 'string' ? m.target : '';
    if (target.toLowerCase() !== 'subscribe') {
      if (invocationId) {
        hub.send(conn, [
          frame({ type: MessageType.Completion, invocationId, error: `Unknown hub method '${target}'` }),
        ]);
      }
      return;
    }
    const args = Array.isArray(m.arguments) ? (m.arguments as unknown[]) : [];
    const list = Array.isArray(args[0]) ? args[0] : [];
    const topics = list.filter((t): t is string => typeof t === 'string');
    state.count('subscribes');
    const reply = () => {
      if (!connections.has(conn.id)) return;
      for (const topic of topics) conn.topics.add(topic);
      // The snapshot is taken when it is sent: later events reach this connection as feed frames.
      hub.broadcastDue();
      if (invocationId) {
        hub.send(conn, [
          frame({
            type: MessageType.Completion,
            invocationId,
            result: playback.snapshot(topics, conn.authorized),
          }),
        ]);
      }
    };
    if (snapshotDelayMs > 0) setTimeout(reply, snapshotDelayMs).unref();
    else reply();
  }

  function onFrame(conn: Connection, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      state.count('bad-frames');
      hub.closeConnection(conn, {
        error: 'Connection closed with an error. InvalidDataException: invalid JSON.',
      });
      return;
    }
    const m = (message ?? {}) as Record<string, unknown>;
    if (!conn.handshaken) {
      onHandshake(conn, m);
      return;
    }
    if (m.type === MessageType.Ping) return;
    if (m.type === MessageType.Close) {
      hub.closeConnection(conn, null);
      return;
    }
    if (m.type !== MessageType.Invocation) return;
    onInvocation(conn, m);
  }

  return (conn, data, isBinary) => {
    // Closed from this side but still draining: what the client sends meanwhile is dropped unread.
    if (!connections.has(conn.id)) return;
    if (isBinary) {
      hub.closeConnection(conn, { error: 'binary frames are not supported' });
      return;
    }
    const taken = takeFrames(conn.buffer, data);
    if (!taken.ok) {
      state.count('closed-too-big');
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
  };
}
