/** The account's event stream, followed by this process as a client does. */
import http from 'node:http';
import { call } from '../shared/api.js';

export interface Arrival {
  id: number;
  sessionKey: number;
  state: string;
  emittedAt: number;
  arrivedAt: number;
  /** The first flag of a connection: the current state, not a change. */
  snapshot: boolean;
}

export type EventStream = ReturnType<typeof followStream>;

export function followStream(base: string, token: string) {
  const arrivals: Arrival[] = [];
  let closed = false;
  let request: http.ClientRequest | null = null;
  let retrying = false;

  const retry = () => {
    if (closed || retrying) return;
    retrying = true;
    request?.destroy();
    setTimeout(() => {
      retrying = false;
      void connect();
    }, 300);
  };

  const onBlock = (block: string, arrivedAt: number, first: { value: boolean }) => {
    if (!/^event: flag$/m.test(block)) return;
    const data = /^data: (.*)$/m.exec(block)?.[1];
    const id = Number(/^id: (\d+)$/m.exec(block)?.[1]);
    if (!data) return;
    const flag = JSON.parse(data) as { sessionKey: number; state: string; emittedAt: string };
    arrivals.push({
      id,
      sessionKey: flag.sessionKey,
      state: flag.state,
      emittedAt: Date.parse(flag.emittedAt),
      arrivedAt,
      snapshot: first.value,
    });
    first.value = false;
  };

  const connect = async () => {
    if (closed) return;
    try {
      const { ticket } = await call<{ ticket: string }>(base, 'POST', '/api/live/ticket', undefined, token);
      const first = { value: true };
      request = http.get(
        `${base}/api/live/events?ticket=${encodeURIComponent(ticket)}`,
        { headers: { accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            retry();
            return;
          }
          response.setEncoding('utf8');
          let buffer = '';
          response.on('data', (chunk: string) => {
            const arrivedAt = Date.now();
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              onBlock(buffer.slice(0, end), arrivedAt, first);
              buffer = buffer.slice(end + 2);
            }
          });
          response.on('end', retry);
          response.on('error', retry);
        },
      );
      request.on('error', retry);
    } catch {
      retry();
    }
  };

  void connect();
  return {
    arrivals,
    sessionKey: () => arrivals.at(-1)?.sessionKey ?? null,
    close() {
      closed = true;
      request?.destroy();
    },
  };
}
