import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 a moment ago, for a server a test or bench starts next: the OS picks
 * it and the probe closes before it is used (another process could take it in between; on this
 * loopback-only machine none does).
 */
export async function findFreeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
