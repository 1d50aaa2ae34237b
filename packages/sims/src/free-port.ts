import { createServer } from 'node:net';

/**
 * Below every system's ephemeral range (Linux 32768–60999, Windows and macOS 49152–65535): a socket
 * bound to port 0, and an outgoing connection's own end, are never given one of these.
 */
export const FREE_PORT_RANGE = { from: 20_000, to: 32_767 } as const;
const FREE_PORT_TRIES = 50;
/** Ports this process has handed out: two probes at once never name the same one. */
const handedOut = new Set<number>();

/**
 * A port free on 127.0.0.1 right now, for a listener started next: chosen at random below the
 * ephemeral ports, and tried (`binds` listens on it and closes again) until one binds. A port from
 * the ephemeral range, closed by the probe and listened on a moment later, was taken in between by
 * one of the many sockets the tests bind to port 0 or connect from (UDP once: "port 54200 is in
 * use"; TCP once: a demo server's EADDRINUSE).
 */
export async function pickFreePort(
  kind: 'TCP' | 'UDP',
  binds: (port: number) => Promise<boolean>,
  random: () => number = Math.random,
): Promise<number> {
  const { from, to } = FREE_PORT_RANGE;
  for (let tries = 0; tries < FREE_PORT_TRIES; tries++) {
    const port = from + Math.floor(random() * (to - from + 1));
    if (handedOut.has(port)) continue;
    // Reserved before the probe: a probe running at the same time passes it over.
    handedOut.add(port);
    if (await binds(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free ${kind} port found in ${FREE_PORT_TRIES} tries between ${from} and ${to}`);
}

/** Whether a TCP listener could take `port` on 127.0.0.1 (it is closed again at once). */
function tcpBinds(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port free on 127.0.0.1, for a server a test or bench starts next (`pickFreePort`). */
export function findFreeTcpPort(random: () => number = Math.random): Promise<number> {
  return pickFreePort('TCP', tcpBinds, random);
}
