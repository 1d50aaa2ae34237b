import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { LightError } from '../../errors.js';

/**
 * The driver's one UDP socket, bound to the listen port. reuseAddr: another Govee app on this PC
 * may have bound it too (reference §2.1). A failure says what to do about it.
 */
export function bindGoveeSocket(options: {
  port: number;
  bindAddress: string;
  onMessage: (datagram: Buffer, from: RemoteInfo) => void;
  log: (message: string) => void;
}): Promise<Socket> {
  const { port, bindAddress, onMessage, log } = options;
  return new Promise<Socket>((resolve, reject) => {
    const s = createSocket({ type: 'udp4', reuseAddr: true });
    const fail = (error: NodeJS.ErrnoException) => {
      try {
        s.close();
      } catch {
        // never bound: nothing to close
      }
      const message =
        error.code === 'EADDRINUSE'
          ? `UDP port ${port} is in use: another Govee app on this computer (Govee Home, ` +
            'Home Assistant, a Homebridge plugin) may hold it. Quit it, or choose other ports with --govee-ports.'
          : `Could not open UDP port ${port} on ${bindAddress}: ${error.message}`;
      reject(new LightError('network', message));
    };
    s.once('error', fail);
    s.bind(port, bindAddress, () => {
      s.off('error', fail);
      s.on('error', (error) => log(`Govee LAN socket error: ${error.message}`));
      s.on('message', onMessage);
      resolve(s);
    });
  });
}
