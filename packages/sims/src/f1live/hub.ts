import { type WebSocket } from 'ws';
import { type Playback } from './playback.js';
import { deflateTopic, frame, garbageMessages, MessageType } from './protocol.js';
import { type SimState } from './state.js';
import { type F1LiveConnectionView } from './types.js';

export interface Connection {
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

/** A SignalR close frame's fields; `null` closes without one (an abrupt TCP close). */
export type CloseFrame = { error?: string; allowReconnect?: boolean } | null;

/** The open sockets and what the hub sends them: feed frames, heartbeats, pings, close frames. */
export interface Hub {
  connections: Map<string, Connection>;
  /** Sends frames to one connection, several per WebSocket message, none split; held while stalled. */
  send(conn: Connection, frames: string[]): void;
  /** Sends every event that has become due to the connections subscribed to its topic. */
  broadcastDue(): void;
  heartbeat(): void;
  ping(): void;
  sendGarbage(conn: Connection, feedTime: string): void;
  closeConnection(conn: Connection, close: CloseFrame): void;
  /** Closes every connection; how many there were. */
  closeAll(close: CloseFrame): number;
  /** The socket has closed: nothing more is sent to it or held for it. */
  forget(id: string): void;
  /** A stall has healed: what was held arrives at once. */
  releaseStalled(): void;
  /** Reordering has stopped: each held-back race-control frame goes out now, late. */
  releaseReordered(): void;
  views(): F1LiveConnectionView[];
}

/** Frames per WebSocket message at most: several per message, as the real feed batches them. */
const FRAMES_PER_MESSAGE = 4;

function feedFrame(topic: string, data: unknown, feedTime: string): string {
  return frame({ type: MessageType.Invocation, target: 'feed', arguments: [topic, data, feedTime] });
}

export function createHub(state: SimState, playback: Playback): Hub {
  const connections = new Map<string, Connection>();
  /** `reorder`: per connection, the race-control frame held back until the next one is sent. */
  const heldMessage = new Map<string, string>();

  function send(conn: Connection, frames: string[]): void {
    if (frames.length === 0) return;
    const messages: string[] = [];
    for (let i = 0; i < frames.length; i += FRAMES_PER_MESSAGE) {
      messages.push(frames.slice(i, i + FRAMES_PER_MESSAGE).join(''));
    }
    if (state.mode === 'stall') {
      conn.held.push(...messages);
      return;
    }
    for (const message of [...conn.held.splice(0), ...messages]) {
      if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
    }
    conn.framesSent += frames.length;
  }

  function broadcastDue(): void {
    const due = playback.takeDue();
    if (due.length === 0) return;
    for (const conn of connections.values()) {
      const frames: string[] = [];
      for (const event of due) {
        if (!conn.topics.has(event.topic)) continue;
        const f = feedFrame(event.topic, playback.updateOf(event), playback.feedTimeAt(event.offsetMs));
        if (event.topic !== 'RaceControlMessages' || state.messageFault === 'none') frames.push(f);
        else if (state.messageFault === 'duplicate') frames.push(f, f);
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

  function sendGarbage(conn: Connection, feedTime: string): void {
    for (const message of garbageMessages(feedTime)) {
      if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
    }
    state.count('garbage-bursts');
  }

  function heartbeat(): void {
    const feedTime = playback.feedTimeAt(playback.position());
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
      if (state.mode === 'garbage') sendGarbage(conn, feedTime);
    }
  }

  function ping(): void {
    for (const conn of connections.values()) {
      if (conn.handshaken) send(conn, [frame({ type: MessageType.Ping })]);
    }
  }

  function closeConnection(conn: Connection, close: CloseFrame): void {
    connections.delete(conn.id);
    if (close === null) {
      conn.socket.terminate();
      return;
    }
    const message: Record<string, unknown> = { type: MessageType.Close };
    if (close.error !== undefined) message.error = close.error;
    if (close.allowReconnect !== undefined) message.allowReconnect = close.allowReconnect;
    // A connection still in its handshake is closed without a Close message: SignalR's first answer
    // is the handshake response, and a client that reads anything else first fails its start with
    // "Expected a handshake response from the server" (seen when the demo race restarted while the
    // server's feed was connecting).
    if (conn.handshaken && conn.socket.readyState === conn.socket.OPEN) conn.socket.send(frame(message));
    conn.socket.close(1000);
  }

  return {
    connections,
    send,
    broadcastDue,
    heartbeat,
    ping,
    sendGarbage,
    closeConnection,
    closeAll(close) {
      const list = [...connections.values()];
      for (const conn of list) closeConnection(conn, close);
      return list.length;
    },
    forget(id) {
      connections.delete(id);
      heldMessage.delete(id);
    },
    releaseStalled() {
      for (const conn of connections.values()) {
        for (const message of conn.held.splice(0)) {
          if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
        }
      }
    },
    releaseReordered() {
      for (const [id, held] of heldMessage) {
        const conn = connections.get(id);
        if (conn) send(conn, [held]);
      }
      heldMessage.clear();
    },
    views() {
      return [...connections.values()].map((c) => ({
        id: c.id,
        since: new Date(c.since).toISOString(),
        handshaken: c.handshaken,
        topics: [...c.topics],
        authorized: c.authorized,
        framesSent: c.framesSent,
      }));
    },
  };
}
