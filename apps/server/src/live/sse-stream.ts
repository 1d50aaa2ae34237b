// One client's event stream: what it has written, how it closes, and how its head goes out.
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TimerHandle, Timers } from './clock.js';
import { flagFrame, type Frame } from './sse-frames.js';
import type { FlagEvent } from './types.js';

/** Bytes a client may leave unread before it is dropped (a few hundred events; never unbounded). */
export const MAX_BUFFERED_BYTES = 64 * 1024;

export interface SseStream {
  readonly res: ServerResponse;
  closed: boolean;
  /** Set once the head is sent: where the frames go (the socket itself, or `res` as a fallback). */
  send: ((frame: Frame) => void) | null;
  lastWritten: number;
  /** Flag events that came before the head was sent; null once they are written. */
  pending: FlagEvent[] | null;
  /** The replay ended before the stream was open: it gets 404 instead. */
  endedEarly: boolean;
  heartbeat: TimerHandle | null;
  unsubscribe: () => void;
  unsubscribeUser: () => void;
  forgetDevice: () => void;
  /** Ends the stream; `graceful`: what was written still reaches the client (the end is sent). */
  close: (graceful?: boolean) => void;
  write: (frame: Frame) => void;
  /** Writes a flag event unless the client has it already (ids only grow). */
  writeFlag: (event: FlagEvent) => void;
}

export function createSseStream(options: {
  res: ServerResponse;
  lastEventId: number | undefined;
  /** Gives the stream's place back. */
  release: () => void;
  /** The open streams, closed with the server. */
  streams: Set<() => void>;
  timers: Timers;
}): SseStream {
  const { res, timers } = options;
  const stream: SseStream = {
    res,
    closed: false,
    send: null,
    lastWritten: options.lastEventId ?? 0,
    pending: [],
    endedEarly: false,
    heartbeat: null,
    unsubscribe: () => {},
    unsubscribeUser: () => {},
    forgetDevice: () => {},
    close: (graceful = false) => {
      if (stream.closed) return;
      stream.closed = true;
      options.release();
      options.streams.delete(stream.close);
      stream.forgetDevice();
      if (stream.heartbeat) timers.clearTimeout(stream.heartbeat);
      stream.unsubscribe();
      stream.unsubscribeUser();
      if (res.destroyed) return;
      if (graceful && res.headersSent) res.end();
      else res.destroy();
    },
    write: (frame) => {
      if (stream.closed || !stream.send) return;
      // A client that cannot keep up is dropped; it reconnects and resumes from its last id.
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        stream.close();
        return;
      }
      stream.send(frame);
    },
    writeFlag: (event) => {
      if (event.id <= stream.lastWritten) return;
      stream.lastWritten = event.id;
      stream.write(flagFrame(event));
    },
  };
  return stream;
}

/**
 * Takes the response over from Fastify and sends the stream's head; false when the client went
 * while the subscription was made (its stream is closed, its place freed now, not never).
 */
export function sendStreamHead(stream: SseStream, request: FastifyRequest, reply: FastifyReply): boolean {
  const { res } = stream;
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.on('close', stream.close);
  request.raw.on('close', stream.close);
  const socket = res.socket;
  if (!socket || socket.destroyed) {
    stream.close();
    return false;
  }
  res.flushHeaders();
  // The head is on the socket: the body's frames can follow it there directly, framed as
  // `res` would (chunked for HTTP/1.1). If the head is still queued, `res` keeps the order.
  const direct = res.headersSent && res.writableLength === socket.writableLength;
  const chunked = res.chunkedEncoding;
  stream.send = direct
    ? (frame) => socket.write(chunked ? frame.chunked : frame.raw)
    : (frame) => res.write(frame.raw);
  return true;
}
