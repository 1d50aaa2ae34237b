import { describe, expect, test } from 'vitest';
import { readEventStream, type SseEvent } from './sse.js';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[]) {
  const events: SseEvent[] = [];
  const batches: number[] = [];
  let activity = 0;
  await readEventStream(streamOf(chunks), {
    onEvent: (event) => events.push(event),
    onActivity: () => (activity += 1),
    onChunkEnd: () => batches.push(events.length),
  });
  return { events, batches, activity };
}

describe('readEventStream', () => {
  test('reads named events with ids, joins data lines and skips comments', async () => {
    const { events } = await read([
      'retry: 1000\n\n: heartbeat\n\nid: 7\nevent: flag\ndata: {"a":1}\n\n',
      'event: status\ndata: line one\ndata: line two\n\n',
    ]);
    expect(events).toEqual([
      { event: 'flag', data: '{"a":1}', id: '7' },
      { event: 'status', data: 'line one\nline two', id: '7' },
    ]);
  });

  test('an event split across chunks, and CRLF or CR line ends, arrive whole', async () => {
    const { events } = await read(['id: 1\r\nevent: fl', 'ag\r\ndata: x\r', '\n\r\n', 'data: y\r\r']);
    expect(events).toEqual([
      { event: 'flag', data: 'x', id: '1' },
      { event: 'message', data: 'y', id: '1' },
    ]);
  });

  test('events of one chunk form one batch; every chunk counts as activity', async () => {
    const { batches, activity } = await read([
      'id: 1\nevent: flag\ndata: a\n\nid: 2\nevent: flag\ndata: b\n\n',
      ': hb\n\n',
    ]);
    expect(batches).toEqual([2, 2, 2]);
    expect(activity).toBe(2);
  });

  test('an event without data is not dispatched, and an unfinished one at the end is dropped', async () => {
    const { events } = await read(['event: flag\n\nevent: flag\ndata: half']);
    expect(events).toEqual([]);
  });

  test('its signal ends the reading of a body that never ends, the events before it delivered', async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('event: flag\ndata: green\n\n'));
      },
    });
    const stop = new AbortController();
    const events: SseEvent[] = [];
    const reading = readEventStream(body, {
      signal: stop.signal,
      onEvent: (event) => {
        events.push(event);
        stop.abort();
      },
    });
    await expect(reading).resolves.toBeUndefined();
    expect(events).toEqual([{ event: 'flag', data: 'green' }]);
  });
});
