import { createServer } from 'node:net';

/**
 * Below every system's ephemeral range (Linux 32768–60999): an outgoing connection's own end, or a
 * socket bound to port 0, is never given one of these. A port the OS picked from that range, closed
 * by the probe and listened on a moment later, was once taken in between (a demo server's
 * EADDRINUSE). The journeys' own copy of the simulators' rule (packages/sims/src/free-port.ts): the
 * journeys import nothing from the workspaces.
 */
const RANGE = { from: 20_000, to: 32_767 } as const;
const TRIES = 50;
/** Ports this worker has handed out: two probes at once never name the same one. */
const handedOut = new Set<number>();

const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A TCP port free on 127.0.0.1 right now, for a server the journey starts next. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < TRIES; tries++) {
    const port = RANGE.from + Math.floor(Math.random() * (RANGE.to - RANGE.from + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await listens(port)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free TCP port found in ${TRIES} tries between ${RANGE.from} and ${RANGE.to}`);
}
