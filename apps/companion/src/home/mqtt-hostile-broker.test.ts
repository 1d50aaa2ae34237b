// A hostile broker (or an impostor at its address) sends one unsolicited 250 MB PUBLISH.
// Before, MQTT.js buffered it whole: the companion reached 587 MB. The companion subscribes to
// nothing, so a broker owes it only acknowledgements of a few bytes.
import net from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { freePort } from '../../test/mosquitto.js';
import { createLogger } from '../system/log.js';
import { createMqttPublisher } from './mqtt-publisher.js';
import { createPacketSizeGuard, MQTT_MAX_INCOMING_PACKET_BYTES } from './mqtt-stream.js';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** MQTT's remaining length: 7 bits a byte, the top bit says another byte follows. */
function remainingLength(value: number): number[] {
  const bytes: number[] = [];
  let left = value;
  do {
    const digit = left % 128;
    left = Math.floor(left / 128);
    bytes.push(left > 0 ? digit | 0x80 : digit);
  } while (left > 0);
  return bytes;
}

/** A PUBLISH (QoS 0, topic `x`) whose header announces `bodyLength` bytes after the header. */
function publishHeader(bodyLength: number): Buffer {
  return Buffer.from([0x30, ...remainingLength(bodyLength), 0x00, 0x01, 0x78]);
}

/** A packet of `bodyLength` body bytes, whole. */
function packet(bodyLength: number): Buffer {
  return Buffer.concat([Buffer.from([0xd0, ...remainingLength(bodyLength)]), Buffer.alloc(bodyLength)]);
}

describe('the packet size guard', () => {
  test('a packet of exactly the limit passes; one byte more is refused at its header', () => {
    const limit = 1_000;
    const body = limit - 1 - remainingLength(limit).length;
    expect(createPacketSizeGuard(limit)(packet(body))).toEqual({ ok: true });
    expect(createPacketSizeGuard(limit)(packet(body + 1).subarray(0, 4))).toEqual({
      ok: false,
      size: limit + 1,
    });
  });

  test('250 MB announced: refused from its first 5 bytes, whatever follows', () => {
    const guard = createPacketSizeGuard(MQTT_MAX_INCOMING_PACKET_BYTES);
    const header = publishHeader(250 * 1024 * 1024);
    expect(guard(Buffer.from([0x20, 0x02, 0x00, 0x00]))).toEqual({ ok: true });
    expect(guard(header.subarray(0, 2))).toEqual({ ok: true });
    expect(guard(header.subarray(2))).toEqual({ ok: false, size: 1 + 4 + 250 * 1024 * 1024 });
  });

  test('a remaining length longer than 4 bytes is refused as malformed', () => {
    expect(createPacketSizeGuard(1_000_000)(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80, 0x01]))).toEqual({
      ok: false,
      size: null,
    });
  });

  test('any stream of packets, cut anywhere: refused exactly when a packet is over the limit, naming its size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 20_000 }),
        (bodies, cuts, limit) => {
          const stream = Buffer.concat(bodies.map(packet));
          const guard = createPacketSizeGuard(limit);
          let verdict: ReturnType<typeof guard> = { ok: true };
          for (let at = 0, i = 0; at < stream.length && verdict.ok; i += 1) {
            const next = Math.min(stream.length, at + (cuts[i % cuts.length] ?? 1));
            verdict = guard(stream.subarray(at, next));
            at = next;
          }
          const sizes = bodies.map((b) => 1 + remainingLength(b).length + b);
          const over = sizes.find((size) => size > limit);
          expect(verdict).toEqual(over === undefined ? { ok: true } : { ok: false, size: over });
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * A fake broker on a loopback port speaking just enough MQTT: a CONNACK to each connection, and to
 * the first one (unless `announced` is null) a PUBLISH announcing `announced` bytes, its body
 * streamed in 1 MiB chunks as fast as the reader takes them. It never acknowledges a publish.
 */
async function startHostileBroker(announced: number | null) {
  const port = await freePort();
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  const attack = { written: 0, closed: false, finished: false };
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    const first = connections === 0;
    connections += 1;
    socket.once('data', () => {
      socket.write(Buffer.from([0x20, 0x02, 0x00, 0x00]));
      if (!first || announced === null) return;
      socket.on('close', () => (attack.closed = true));
      void (async () => {
        const header = publishHeader(announced);
        let left = announced - 3;
        socket.write(header);
        while (left > 0 && !socket.destroyed) {
          const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
          if (!socket.write(piece))
            await new Promise<void>((resolve) => {
              const done = () => {
                socket.off('drain', done).off('close', done);
                resolve();
              };
              socket.on('drain', done).on('close', done);
            });
          attack.written = socket.bytesWritten;
        }
        attack.finished = left === 0 && !socket.destroyed;
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${port}`,
    attack,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

describe('a hostile broker', () => {
  test(
    'one unsolicited 250 MB PUBLISH: dropped at its header with a warning, memory stays flat, the companion connects again',
    { timeout: paced(60_000) },
    async () => {
      const announced = 250 * 1024 * 1024;
      const broker = await startHostileBroker(announced);
      cleanup.push(() => broker.close());
      const before = process.memoryUsage();
      let peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
      const sampler = setInterval(() => {
        const now = process.memoryUsage();
        peak = {
          rss: Math.max(peak.rss, now.rss),
          arrayBuffers: Math.max(peak.arrayBuffers, now.arrayBuffers),
        };
      }, 10);
      cleanup.push(async () => clearInterval(sampler));

      const log = createLogger({ console: false });
      const publisher = createMqttPublisher(
        { url: broker.url },
        { companionId: 'hostile', name: 'Hostile', version: '1' },
        log,
      );
      cleanup.push(() => publisher.close());

      await vi.waitFor(() => expect(broker.attack.closed).toBe(true), { timeout: paced(20_000) });
      await vi.waitFor(() =>
        expect(publisher.status().message).toMatch(
          /sent a packet of 262\.1 MB, over the 1\.0 MB limit: dropped it and closed the connection/,
        ),
      );
      const warning = log
        .recent()
        .find((e) => e.level === 'warn' && /over the 1\.0 MB limit/.test(e.message));
      expect(warning?.message).toMatch(
        /^MQTT: The MQTT broker mqtt:\/\/127\.0\.0\.1:\d+ sent a packet of 262\.1 MB/,
      );
      clearInterval(sampler);
      const after = process.memoryUsage();
      console.log(
        `hostile broker, 250 MiB announced: it wrote ${mb(broker.attack.written)} before the companion closed; ` +
          `rss ${mb(before.rss)} → peak ${mb(peak.rss)} → ${mb(after.rss)}, ` +
          `arrayBuffers ${mb(before.arrayBuffers)} → peak ${mb(peak.arrayBuffers)} → ${mb(after.arrayBuffers)}`,
      );
      expect(broker.attack.finished).toBe(false);
      // What the broker could push is the limit plus the sockets' kernel buffers, not the packet.
      expect(broker.attack.written).toBeLessThan(MQTT_MAX_INCOMING_PACKET_BYTES + 16 * 1024 * 1024);

      // The broker behaves again: the companion connects and publishes as usual.
      await vi.waitFor(
        () => expect(publisher.status()).toMatchObject({ state: 'connected', message: null }),
        {
          timeout: paced(20_000),
        },
      );
      expect(broker.connections()).toBeGreaterThanOrEqual(2);
      await publisher.close();
    },
  );

  test(
    'a broker that never acknowledges cannot hold up the companion stopping',
    { timeout: paced(30_000) },
    async () => {
      const broker = await startHostileBroker(null);
      cleanup.push(() => broker.close());
      const publisher = createMqttPublisher(
        { url: broker.url },
        { companionId: 'silent', name: 'Silent', version: '1' },
        createLogger({ console: false }),
      );
      await vi.waitFor(() => expect(publisher.status().state).toBe('connected'));
      await publisher.close();
      expect(publisher.status().state).toBe('closed');
    },
  );
});
