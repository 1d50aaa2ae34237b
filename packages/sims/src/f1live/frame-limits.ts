import { type RawData } from 'ws';
import { splitFrames } from './protocol.js';

/**
 * Largest WebSocket message the hub reads (the ws server's `maxPayload`): a bigger one is refused
 * from its header, before its payload is buffered, and the socket closed with 1009. ASP.NET Core
 * caps a hub message too (32 KiB by default); a Subscribe to every topic is far below either.
 */
export const F1LIVE_MAX_MESSAGE_BYTES = 64 * 1024;
/**
 * Largest text kept per socket while a frame waits for its record separator. Without it, text
 * that never ends a frame grows the server for as long as the client sends.
 */
export const F1LIVE_MAX_BUFFERED_BYTES = 64 * 1024;
/** WebSocket close code: "message too big" (RFC 6455 §7.4.1). */
export const CLOSE_MESSAGE_TOO_BIG = 1009;

export type TakenFrames = { ok: true; frames: string[]; rest: string } | { ok: false };

/**
 * Adds a text message to what the socket left unterminated and splits off the complete frames;
 * `ok: false` when the unterminated rest would outgrow `F1LIVE_MAX_BUFFERED_BYTES`.
 */
export function takeFrames(buffered: string, data: RawData): TakenFrames {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
  const { frames, rest } = splitFrames(buffered + bytes.toString('utf8'));
  if (Buffer.byteLength(rest, 'utf8') > F1LIVE_MAX_BUFFERED_BYTES) return { ok: false };
  return { ok: true, frames, rest };
}

/** True for the error ws raises when a message exceeds `maxPayload` (it has already sent 1009). */
export function isMessageTooBig(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
}
