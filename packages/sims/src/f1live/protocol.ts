import { type Duplex } from 'node:stream';
import { deflateRawSync } from 'node:zlib';

/** Every SignalR JSON frame ends with the ASCII record separator. */
export const RS = '\x1e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

export function frame(message: unknown): string {
  return JSON.stringify(message) + RS;
}

/** Splits a text message into complete frames; what follows the last separator is returned as `rest`. */
export function splitFrames(text: string): { frames: string[]; rest: string } {
  const parts = text.split(RS);
  const rest = parts.pop() ?? '';
  return { frames: parts, rest };
}

/** `.z` topics: base64 of raw DEFLATE of the JSON (reference §4). */
export function deflateTopic(value: unknown): string {
  return deflateRawSync(Buffer.from(JSON.stringify(value), 'utf8')).toString('base64');
}

/** Cookie header → name/value pairs; tolerates attributes mixed in (`AWSALB=v; Path=/; Secure`). */
export function parseCookieHeader(header: string | string[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  for (const line of lines) {
    for (const part of line.split(/[;,]/)) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      const name = part.slice(0, eq).trim();
      if (/^(path|domain|expires|max-age|samesite|secure|httponly)$/i.test(name)) continue;
      if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
    }
  }
  return out;
}

/** Answers an upgrade request with a plain HTTP error instead of switching protocols. */
export function refuse(socket: Duplex, status: number, reason: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Malformed traffic for `garbage` mode: wrong shapes first, then frames the client cannot parse at all. */
export function garbageMessages(feedTime: string): (string | Buffer)[] {
  return [
    frame({ type: 1, target: 'feed', arguments: [42, null] }) +
      frame({ type: 1, target: 'feed' }) +
      frame({ type: 99, what: 'unknown type' }) +
      frame({ type: 1, target: 'feed', arguments: ['CarData.z', '!!not base64!!', feedTime] }) +
      frame({ type: 1, target: 'feed', arguments: ['TrackStatus', { Status: { odd: true } }, feedTime] }) +
      frame({
        type: 1,
        target: 'feed',
        arguments: ['RaceControlMessages', { Messages: { x: 1 } }, feedTime],
      }),
    Buffer.from([0xff, 0x00, 0x1e, 0x9c]),
    `{"type":1,"target":"feed","arguments":["TrackStatus",{"Status":${RS}`,
    'not json at all',
  ];
}
