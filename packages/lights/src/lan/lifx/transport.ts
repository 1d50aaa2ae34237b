import { randomInt } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import {
  decodeLifxPacket,
  encodeLifxPacket,
  LIFX_BROADCAST_TARGET,
  type LifxMessage,
  type LifxPacket,
} from '@flaglight/core';
import { LightError } from '../../errors.js';

export const LIFX_LAN_CLOSED = 'LIFX LAN driver is closed';

export interface LifxTransportOptions {
  bindAddress: string;
  /** A real scan (the broadcast option, or a directed broadcast target): the socket may broadcast. */
  broadcast: boolean;
  isClosed: () => boolean;
  log: (message: string) => void;
  /** A LIFX packet sent to this driver: its source is ours and it is not our broadcast echoed back. */
  onPacket: (packet: LifxPacket, from: RemoteInfo) => void;
}

export interface LifxTransport {
  /** Binds the socket once (an ephemeral port); a failed bind is tried again on the next call. */
  open(): Promise<Socket>;
  nextSequence(): number;
  encode(
    target: string,
    sequence: number,
    message: LifxMessage,
    ackRequired: boolean,
    tagged?: boolean,
  ): Uint8Array;
  send(bytes: Uint8Array, port: number, address: string): void;
  /** Closes the socket, waiting for a bind under way. */
  close(): Promise<void>;
}

/** The LIFX LAN driver's one UDP socket, with the source and sequence numbers its headers carry. */
export function createLifxTransport(options: LifxTransportOptions): LifxTransport {
  const { bindAddress, broadcast, isClosed, log, onPacket } = options;
  // Random and non-zero: a zero source may get broadcast replies (§3 pitfalls).
  const source = randomInt(1, 0xffffffff);
  let sequence = randomInt(0, 256);
  let socket: Socket | null = null;
  let opening: Promise<Socket> | null = null;

  function open(): Promise<Socket> {
    if (isClosed()) return Promise.reject(new LightError('not-configured', LIFX_LAN_CLOSED));
    opening ??= new Promise<Socket>((resolve, reject) => {
      const s = createSocket('udp4');
      const fail = (error: Error) => {
        opening = null;
        reject(new LightError('network', `Could not open a UDP socket on ${bindAddress}: ${error.message}`));
      };
      s.once('error', fail);
      s.bind(0, bindAddress, () => {
        s.off('error', fail);
        // Only after bind (before it, setBroadcast fails with EBADF), and only for a real scan.
        if (broadcast) s.setBroadcast(true);
        s.on('error', (error) => log(`LIFX LAN socket error: ${error.message}`));
        s.on('message', (datagram, from) => {
          try {
            receive(datagram, from);
          } catch (error) {
            log(`LIFX LAN: ignored a datagram (${error instanceof Error ? error.message : String(error)})`);
          }
        });
        socket = s;
        resolve(s);
      });
    });
    return opening;
  }

  function receive(datagram: Buffer, from: RemoteInfo): void {
    let packet: LifxPacket;
    try {
      packet = decodeLifxPacket(new Uint8Array(datagram.buffer, datagram.byteOffset, datagram.byteLength));
    } catch {
      return; // not a LIFX message
    }
    // Other apps' traffic on the LAN (and our own broadcast echoed back) is not ours.
    if (packet.header.source !== source || packet.header.target === LIFX_BROADCAST_TARGET) return;
    onPacket(packet, from);
  }

  return {
    open,
    nextSequence: () => (sequence = (sequence + 1) & 0xff),
    encode: (target, seq, message, ackRequired, tagged = false) =>
      encodeLifxPacket({ tagged, source, target, resRequired: false, ackRequired, sequence: seq }, message),
    send(bytes, port, address) {
      if (!socket || isClosed()) return;
      socket.send(bytes, port, address, (error) => {
        if (error) log(`LIFX LAN: send to ${address}:${port} failed: ${error.message}`);
      });
    },
    async close() {
      const s = socket ?? (opening ? await opening.catch(() => null) : null);
      socket = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
