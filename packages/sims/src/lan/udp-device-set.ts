import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { pickFreePort } from '../free-port.js';
import { LAN_SIM_HOST } from './lan-host.js';

export function bindUdpSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(port, LAN_SIM_HOST, () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** Never rejects: closing a socket that is already closed throws, and that is fine here. */
export function closeUdpSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * A UDP port free on 127.0.0.1 right now (the client binds it next: the demo's reply port), chosen
 * below the ephemeral ports (`pickFreePort`).
 */
export function findFreeUdpPort(random: () => number = Math.random): Promise<number> {
  const binds = (port: number) =>
    bindUdpSocket(port).then(
      async (probe) => {
        await closeUdpSocket(probe);
        return true;
      },
      () => false,
    );
  return pickFreePort('UDP', binds, random);
}

export interface UdpDeviceSetOptions<D> {
  /** The port every device shares (LIFX discovery, Govee scan); 0 = ephemeral. */
  sharedPort: number;
  count: number;
  /** Builds device `index` around its own socket, bound to an ephemeral port. */
  create(index: number, socket: Socket): D;
  /** The device's socket now (a reboot may have replaced it). */
  socketOf(device: D): Socket;
  onSharedMessage(datagram: Buffer, from: RemoteInfo, socket: Socket): void;
  onDeviceMessage(device: D, datagram: Buffer, from: RemoteInfo, socket: Socket): void;
}

export interface UdpDeviceSet<D> {
  shared: Socket;
  devices: D[];
  /** True once `close()` has begun: nothing is received, handled or sent after it. */
  readonly closed: boolean;
  /** Runs `task` after `ms` unless the set is closed first (a delay or jitter fault). */
  later(task: () => void, ms: number): void;
  /** Moves a device to a new ephemeral port (a reboot), then closes its old socket. */
  rebind(device: D, adopt: (socket: Socket) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * Binds a shared socket and one socket per device, all on 127.0.0.1 (loopback only: no broadcast,
 * no multicast), and routes their datagrams. If any bind fails, the sockets bound so far are closed
 * before the error is thrown, so a failed start leaves no port taken.
 */
export async function startUdpDeviceSet<D>(options: UdpDeviceSetOptions<D>): Promise<UdpDeviceSet<D>> {
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const shared = await bindUdpSocket(options.sharedPort);
  const devices: D[] = [];
  const everySocket = () => [shared, ...devices.map((device) => options.socketOf(device))];
  try {
    for (let i = 0; i < options.count; i += 1) devices.push(options.create(i, await bindUdpSocket(0)));
  } catch (error) {
    await Promise.all(everySocket().map(closeUdpSocket));
    throw error;
  }

  function listen(device: D): void {
    const socket = options.socketOf(device);
    socket.on('message', (datagram, from) => {
      if (!closed) options.onDeviceMessage(device, datagram, from, socket);
    });
  }
  shared.on('message', (datagram, from) => {
    if (!closed) options.onSharedMessage(datagram, from, shared);
  });
  for (const device of devices) listen(device);

  return {
    shared,
    devices,
    get closed() {
      return closed;
    },
    later(task, ms) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        task();
      }, ms);
      timers.add(timer);
    },
    async rebind(device, adopt) {
      const old = options.socketOf(device);
      // The new port first: the old one stays taken until it is closed, so the two differ.
      adopt(await bindUdpSocket(0));
      listen(device);
      await closeUdpSocket(old);
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(everySocket().map(closeUdpSocket));
    },
  };
}
