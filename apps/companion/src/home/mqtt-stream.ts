// The socket to the MQTT broker, watched before MQTT.js reads it. MQTT.js buffers a packet until its
// last byte has arrived (its `maximumPacketSize` is MQTT 5 only and checked after that), so a broker
// announcing 250 MB would get 250 MB of the companion's memory. Here the framing is followed byte by
// byte and a packet announced over the limit closes the connection at its first chunk. The companion
// subscribes to nothing: a broker only ever owes it a few acknowledgements of 2–4 bytes.
import net from 'node:net';
import tls from 'node:tls';
import type { IStream } from 'mqtt';

/** The largest packet the companion accepts from a broker (fixed header included). */
export const MQTT_MAX_INCOMING_PACKET_BYTES = 1_000_000;

/** MQTT's remaining length is at most 4 bytes of 7 bits (MQTT 3.1.1 §2.2.3). */
const MAX_LENGTH_BYTES = 4;

export type PacketSizeVerdict = { ok: true } | { ok: false; size: number | null };

/**
 * Follows MQTT's framing (a header byte, the remaining length, the body) over the chunks of a byte
 * stream. Answers `{ ok: false, size }` for the first packet announced over `limit` bytes (`size`
 * null when its length field is malformed), before any of its body is needed.
 */
export function createPacketSizeGuard(limit: number): (chunk: Uint8Array) => PacketSizeVerdict {
  let phase: 'header' | 'length' | 'body' = 'header';
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  let left = 0;
  return (chunk) => {
    let i = 0;
    while (i < chunk.length) {
      if (phase === 'body') {
        const step = Math.min(left, chunk.length - i);
        left -= step;
        i += step;
        if (left === 0) phase = 'header';
        continue;
      }
      const byte = chunk[i++] ?? 0;
      if (phase === 'header') {
        phase = 'length';
        length = 0;
        multiplier = 1;
        lengthBytes = 0;
        continue;
      }
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      lengthBytes += 1;
      if ((byte & 0x80) !== 0) {
        if (lengthBytes === MAX_LENGTH_BYTES) return { ok: false, size: null };
        continue;
      }
      const size = 1 + lengthBytes + length;
      if (size > limit) return { ok: false, size };
      left = length;
      phase = left === 0 ? 'header' : 'body';
    }
    return { ok: true };
  };
}

/**
 * Opens `mqtt://` (TCP) or `mqtts://` (TLS, certificate checked) to the broker of `url`, with the
 * packet size guard in front of MQTT.js: a packet over `limit` calls `onOversize` and destroys the
 * socket (MQTT.js then sees a lost connection and tries again after its back-off).
 */
export function openBrokerStream(
  url: string,
  onOversize: (size: number | null) => void,
  limit: number = MQTT_MAX_INCOMING_PACKET_BYTES,
): IStream {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'mqtts:';
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = parsed.port === '' ? (secure ? 8883 : 1883) : Number(parsed.port);
  const socket = secure
    ? tls.connect({ host, port, ...(net.isIP(host) === 0 ? { servername: host } : {}) })
    : net.connect({ host, port });
  const check = createPacketSizeGuard(limit);
  // Added before MQTT.js pipes the socket into its parser, so this listener sees each chunk first;
  // the parser still receives the chunk that announced the packet (one socket read), then nothing.
  socket.on('data', (chunk: Buffer) => {
    if (socket.destroyed) return;
    const verdict = check(chunk);
    if (verdict.ok) return;
    onOversize(verdict.size);
    socket.destroy();
  });
  return socket;
}
