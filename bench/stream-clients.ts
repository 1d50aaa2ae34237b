/**
 * The stream clients of the live benchmark, in their own process (forked by live.ts), so their
 * work and memory do not count as the server's. Each client is a raw TCP connection speaking
 * HTTP/1.1 to `GET /api/live/events` and parsing SSE by hand (an EventSource does no more).
 *
 * Messages from the parent: {type:'connect', origin, tickets} → {type:'connected', ok, failed};
 * {type:'report'} → {type:'report', latencies, events}; {type:'exit'}.
 */
import net from 'node:net';

interface Client {
  socket: net.Socket;
  buffer: string;
  /** The first flag event is the current state on connect, not a new message. */
  sawSnapshot: boolean;
}

const clients: Client[] = [];
const latencies: number[] = [];
let events = 0;
const BATCH = 250;

function send(message: unknown): void {
  process.send?.(message);
}

function onBlock(client: Client, block: string, receivedAt: number): void {
  if (!block.includes('event: flag')) return;
  const data = /(?:^|\n)data: (.*)/.exec(block)?.[1];
  if (!data) return;
  events += 1;
  if (!client.sawSnapshot) {
    client.sawSnapshot = true;
    return;
  }
  // The cause's date is the instant the simulator made the message visible (same machine clock).
  const cause = Date.parse((JSON.parse(data) as { cause: { date: string } }).cause.date);
  latencies.push(receivedAt - cause);
}

function open(origin: URL, ticket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(origin.port), origin.hostname);
    const client: Client = { socket, buffer: '', sawSnapshot: false };
    let headed = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(
        `GET /api/live/events?ticket=${ticket} HTTP/1.1\r\nHost: ${origin.host}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: string) => {
      const receivedAt = Date.now();
      client.buffer += chunk;
      if (!headed) {
        const end = client.buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        headed = true;
        const ok = client.buffer.startsWith('HTTP/1.1 200');
        client.buffer = client.buffer.slice(end + 4);
        resolve(ok);
      }
      // The server's SSE is chunked: chunk-size lines are not SSE fields and never contain "\n\n".
      let i: number;
      while ((i = client.buffer.indexOf('\n\n')) >= 0) {
        onBlock(client, client.buffer.slice(0, i), receivedAt);
        client.buffer = client.buffer.slice(i + 2);
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => {
      if (!headed) resolve(false);
    });
    clients.push(client);
  });
}

process.on('message', (message: { type: string; origin?: string; tickets?: string[] }) => {
  void (async () => {
    if (message.type === 'connect') {
      const origin = new URL(message.origin!);
      const tickets = message.tickets!;
      let ok = 0;
      // In batches, so the server's accept backlog never overflows (a dropped SYN waits 1 s).
      for (let i = 0; i < tickets.length; i += BATCH) {
        const results = await Promise.all(tickets.slice(i, i + BATCH).map((t) => open(origin, t)));
        ok += results.filter(Boolean).length;
      }
      send({ type: 'connected', ok, failed: tickets.length - ok });
    } else if (message.type === 'report') {
      send({ type: 'report', latencies, events });
    } else if (message.type === 'exit') {
      for (const c of clients) c.socket.destroy();
      process.exit(0);
    }
  })();
});

send({ type: 'ready' });
