import type { RemoteInfo, Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { decodeLifxPacket, LIFX_TYPE, type LifxHeader, type LifxMessage } from '@flaglight/core';
import { answerLifxMessage, encodeLifxReply } from './lifx-answers.js';
import {
  createLifxBulb,
  type LifxBulb,
  type LifxBulbFault,
  type LifxReceived,
  patchLifxFault,
  resetLifxBulb,
  type VirtualLifxBulbView,
  viewLifxBulb,
} from './lifx-bulb-model.js';
import { startUdpDeviceSet } from './udp-device-set.js';

export { LAN_SIM_HOST } from './lan-host.js';
export { LIFX_SIM_PRODUCT, LIFX_VENDOR } from './lifx-answers.js';
export type { LifxBulbFault, LifxReceived, VirtualLifxBulbView } from './lifx-bulb-model.js';
export type { LifxWaveformRecord } from './lifx-waveform.js';

export const LIFX_LAN_DEMO_BULB_COUNT = 6;
const LOG_LIMIT = 1000;

export interface VirtualLifxBulbsOptions {
  count?: number;
  /** Port of the discovery socket, which answers GetService for every bulb; 0 = ephemeral. */
  discoveryPort?: number;
  now?: () => number;
  /** Chance source for the drop fault (tests may pass a fixed sequence). */
  random?: () => number;
}

export interface VirtualLifxBulbs {
  /** Where a client sends GetService to find every bulb: the bound address (127.0.0.1) and port. */
  host: string;
  discoveryPort: number;
  list(): VirtualLifxBulbView[];
  get(id: string): VirtualLifxBulbView | undefined;
  /** Received datagrams of one bulb, oldest first (the latency bench reads it). */
  log(id: string): LifxReceived[];
  /** Faults for one bulb, or every bulb when `id` is undefined. */
  setFault(id: string | undefined, fault: Partial<LifxBulbFault>): void;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Virtual LIFX bulbs on the LAN protocol (lan-lights.md §1, §3), each on its own UDP port on
 * 127.0.0.1, plus one discovery port that answers GetService for all of them (each StateService
 * names that bulb's port) and routes other messages by target MAC. A client finds them with one
 * unicast GetService and drives each at 127.0.0.1 and the port its StateService names.
 */
export async function startVirtualLifxBulbs(
  options: VirtualLifxBulbsOptions = {},
): Promise<VirtualLifxBulbs> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;

  const set = await startUdpDeviceSet<LifxBulb>({
    sharedPort: options.discoveryPort ?? 0,
    count: options.count ?? LIFX_LAN_DEMO_BULB_COUNT,
    create: createLifxBulb,
    socketOf: (bulb) => bulb.socket,
    onSharedMessage: (datagram, from, socket) => receive('discovery', socket, undefined, datagram, from),
    onDeviceMessage: (bulb, datagram, from, socket) => receive('bulb', socket, bulb, datagram, from),
  });
  const { shared: discovery, devices: bulbs } = set;

  function send(
    socket: Socket,
    bulb: LifxBulb,
    request: LifxHeader,
    message: LifxMessage,
    to: RemoteInfo,
  ): void {
    if (set.closed) return;
    socket.send(encodeLifxReply(bulb, request, message), to.port, to.address);
  }

  function handle(
    bulb: LifxBulb,
    socket: Socket,
    header: LifxHeader,
    message: LifxMessage,
    from: RemoteInfo,
  ): void {
    const result = answerLifxMessage(bulb, message, now());
    if (!result) return;
    if (header.ackRequired) send(socket, bulb, header, { type: 'Acknowledgement' }, from);
    if (result.answer && (!result.isSet || header.resRequired))
      send(socket, bulb, header, result.answer, from);
  }

  function receive(
    via: 'discovery' | 'bulb',
    socket: Socket,
    own: LifxBulb | undefined,
    datagram: Buffer,
    from: RemoteInfo,
  ) {
    let packet;
    try {
      packet = decodeLifxPacket(new Uint8Array(datagram.buffer, datagram.byteOffset, datagram.byteLength));
    } catch {
      return; // Not a LIFX datagram: a real bulb ignores it too.
    }
    const { header, message } = packet;
    const everyone = header.target === '00:00:00:00:00:00';
    const addressed = own
      ? everyone || header.target === own.id
        ? [own]
        : []
      : bulbs.filter((b) => everyone || b.id === header.target);
    for (const bulb of addressed) {
      const ignored = bulb.fault.offline
        ? 'offline'
        : bulb.fault.dropPercent > 0 && random() * 100 < bulb.fault.dropPercent
          ? 'dropped'
          : null;
      bulb.received += 1;
      bulb.log.push({
        at: now(),
        monotonicMs: performance.now(),
        from: `${from.address}:${from.port}`,
        via,
        type: message.type === 'Unknown' ? 'Unknown' : message.type,
        typeNumber: message.type === 'Unknown' ? message.typeNumber : LIFX_TYPE[message.type],
        source: header.source,
        sequence: header.sequence,
        ackRequired: header.ackRequired,
        resRequired: header.resRequired,
        message,
        ignored,
      });
      if (bulb.log.length > LOG_LIMIT) bulb.log.splice(0, bulb.log.length - LOG_LIMIT);
      if (ignored) continue;
      if (bulb.fault.delayMs > 0)
        set.later(() => handle(bulb, socket, header, message, from), bulb.fault.delayMs);
      else handle(bulb, socket, header, message, from);
    }
  }

  const find = (id: string) => bulbs.find((b) => b.id === id.toLowerCase());

  return {
    host: discovery.address().address,
    discoveryPort: discovery.address().port,
    list: () => bulbs.map((bulb) => viewLifxBulb(bulb, now())),
    get: (id) => {
      const bulb = find(id);
      return bulb ? viewLifxBulb(bulb, now()) : undefined;
    },
    log: (id) => [...(find(id)?.log ?? [])],
    setFault(id, fault) {
      for (const bulb of id === undefined ? bulbs : bulbs.filter((b) => b.id === id.toLowerCase()))
        bulb.fault = patchLifxFault(bulb.fault, fault);
    },
    reset() {
      for (const bulb of bulbs) resetLifxBulb(bulb);
    },
    close: () => set.close(),
  };
}
