import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 a moment ago: the OS picks it, the probe closes before it is used. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
