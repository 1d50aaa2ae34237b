/** One Server-Sent Event as the stream delivered it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Reads a `text/event-stream` body (the WHATWG rules: `event`, `data` lines joined by newlines, `id`,
 * comments ignored, CR, LF or CRLF line ends) and calls `onEvent` per dispatched event, `onActivity`
 * for every chunk (heartbeat comments included: the watchdog's sign of life) and `onChunkEnd` once a
 * chunk's events are all out (events that arrived together, such as a resume's backlog, form a batch).
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  handlers: {
    onEvent(event: SseEvent): void;
    onActivity?(): void;
    onChunkEnd?(): void;
    /** Ends the reading (the caller stops or reconnects). */
    signal?: AbortSignal;
  },
): Promise<void> {
  const { signal } = handlers;
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  const reader = body.getReader();
  // Aborting the fetch did not end a body already being read (the server's event stream kept the
  // reader waiting for ever): the reader itself is cancelled, which ends the loop as a stream's end.
  const cancel = () => void reader.cancel().catch(() => undefined);
  if (signal?.aborted) cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  const drain = (atEnd: boolean) => {
    let index: number;
    while ((index = buffer.search(/\r\n|\r|\n/)) !== -1) {
      // A CR at the very end may be the first half of a CRLF still in flight.
      if (!atEnd && buffer[index] === '\r' && index === buffer.length - 1) break;
      const line = buffer.slice(0, index);
      buffer = buffer.slice(index + (buffer.startsWith('\r\n', index) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) {
          handlers.onEvent({
            event: event || 'message',
            data: data.join('\n'),
            ...(id !== undefined ? { id } : {}),
          });
        }
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id' && !value.includes('\0')) id = value;
    }
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        drain(true);
        handlers.onChunkEnd?.();
        return;
      }
      handlers.onActivity?.();
      buffer += decoder.decode(value, { stream: true });
      drain(false);
      handlers.onChunkEnd?.();
      if (buffer.length > 1_000_000) throw new Error('Event stream line too long');
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}
