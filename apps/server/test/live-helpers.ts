import type { TestApp } from './helper.js';

/** Signs a user up through the demo bot check and returns the session token. */
export async function signUp(
  t: TestApp,
  email = `fan-${Math.random().toString(36).slice(2)}@example.com`,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: {
      email,
      password: 'Secret!123',
      turnstileToken: t.context.sims!.turnstile.control.issueToken(),
    },
  });
  if (res.statusCode >= 300) throw new Error(`signup failed: ${res.body}`);
  return res.json().token as string;
}

export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads an SSE response body into events as they arrive. */
export function readSse(
  body: ReadableStream<Uint8Array>,
  onEvent: (e: SseEvent) => void,
): { done: Promise<void>; comments: () => number } {
  const decoder = new TextDecoder();
  let buffer = '';
  let comments = 0;
  const reader = body.getReader();
  const done = (async () => {
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch {
        return;
      }
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      let i: number;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const event: SseEvent = {};
        let any = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments += 1;
          const m = /^(id|event|data): ?(.*)$/.exec(line);
          if (m) {
            event[m[1] as 'id' | 'event' | 'data'] = m[2];
            any = true;
          }
        }
        if (any && (event.event || event.data)) onEvent(event);
      }
    }
  })();
  return { done, comments: () => comments };
}
