// The event stream's frames: SSE blocks as bytes, made once and shared by every client.
import type { FlagEvent, StatusEventData } from './types.js';
import { userEventData, type UserEvent } from './user-events.js';

/** EventSource waits this long before reconnecting. */
export const RETRY_MS = 3_000;

/**
 * An SSE block as bytes, made once and shared by every client: as is, and framed as one HTTP/1.1
 * chunk. Fan-out then costs one `socket.write` of a shared Buffer per client: no per-client
 * string encoding, chunk-size line or cork/uncork round of `res.write` (bench/live.ts).
 */
export interface Frame {
  raw: Buffer;
  chunked: Buffer;
}

function frameOf(text: string): Frame {
  const raw = Buffer.from(text, 'utf8');
  const chunked = Buffer.concat([Buffer.from(`${raw.length.toString(16)}\r\n`, 'latin1'), raw, CRLF]);
  return { raw, chunked };
}

const CRLF = Buffer.from('\r\n', 'latin1');
export const RETRY_FRAME = frameOf(`retry: ${RETRY_MS}\n\n`);
/** An event, not a comment: an EventSource hands comments to no one. Companions ignore it. */
export const HEARTBEAT_FRAME = frameOf('event: heartbeat\ndata: {}\n\n');
/** Sent to an unlinked companion just before its stream closes: the stream's 401. */
export const UNLINKED_FRAME = frameOf(
  `event: unlinked\ndata: ${JSON.stringify({ code: 'unauthenticated', error: 'This companion was unlinked from its account.' })}\n\n`,
);

/** Every stream of a session gets the same event object: it is framed once, not once per client. */
const flagFrames = new WeakMap<FlagEvent, Frame>();

export function flagFrame(event: FlagEvent): Frame {
  let frame = flagFrames.get(event);
  if (frame === undefined) {
    frame = frameOf(`id: ${event.id}\nevent: flag\ndata: ${JSON.stringify(event.data)}\n\n`);
    flagFrames.set(event, frame);
  }
  return frame;
}

const statusFrames = new WeakMap<StatusEventData, Frame>();

export function statusFrame(status: StatusEventData): Frame {
  let frame = statusFrames.get(status);
  if (frame === undefined) {
    frame = frameOf(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
    statusFrames.set(status, frame);
  }
  return frame;
}

/** Account-wide events carry no id: they are not part of a session's resumable sequence. */
export function userEventFrame(event: UserEvent): Frame {
  return frameOf(`event: ${event.type}\ndata: ${JSON.stringify(userEventData(event))}\n\n`);
}
