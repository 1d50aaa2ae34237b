import { LIVE_STREAM_HEARTBEAT_MS, LIVE_STREAM_SILENCE_MS } from '@flaglight/contract/limits';
import { nextPollDelay } from '@flaglight/core';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { asEventSource, FakeEventSource } from '../../test/fake-event-source';
import { ApiError } from '../api/client';
import type { FlagEvent, LiveStateAnswer } from './live-api';
import { startLiveFeed, streamRetryDelay, type LiveFeedDeps } from './live-feed';

const flag = (id: number, state: FlagEvent['data']['state'], message = state.toUpperCase()): FlagEvent => ({
  id,
  data: {
    sessionKey: 900_000_001,
    state,
    activeSectors: [],
    cause: { date: '2026-03-08T04:00:00Z', message },
    emittedAt: '2026-03-08T04:00:00Z',
  },
});

function setup(overrides: Partial<LiveFeedDeps> = {}) {
  let tickets = 0;
  const deps: LiveFeedDeps = {
    requestTicket: vi.fn(async () => `ticket-${++tickets}`),
    fetchState: vi.fn(async (key?: number): Promise<LiveStateAnswer> => ({
      sessionKey: key ?? 9158,
      event: null,
      upstream: null,
    })),
    fetchCentralizedStatus: vi.fn(async () => ({ centralizedPollingEnabled: true, isPollingActive: true })),
    createEventSource: asEventSource((url) => new FakeEventSource(url)),
    ...overrides,
  };
  const seen = {
    flags: [] as number[],
    connected: [] as { sessionKey: number; transport: string }[],
    transports: [] as string[],
    failed: [] as string[],
    statuses: [] as (string | null)[],
    preferences: [] as unknown[],
    devices: 0,
    reachable: [] as boolean[],
  };
  const feed = startLiveFeed(
    undefined,
    {
      onConnected: (info) => seen.connected.push(info),
      onFlag: (event) => seen.flags.push(event.id),
      onStatus: (status) => seen.statuses.push(status.message),
      onTransport: (t) => seen.transports.push(t),
      onFailed: (error) => seen.failed.push(error.message),
      onPreferences: (data) => seen.preferences.push(data),
      onDevices: () => (seen.devices += 1),
      onReachable: (reachable) => seen.reachable.push(reachable),
    },
    deps,
  );
  return { deps, seen, feed };
}

beforeEach(() => {
  FakeEventSource.reset();
  vi.useFakeTimers({ now: new Date('2026-03-08T04:00:00Z') });
});
afterEach(() => vi.useRealTimers());

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('the live feed: its stream', () => {
  test('opens the stream with a ticket for the session the state call pinned', async () => {
    const { seen } = setup();
    await flush();
    const es = FakeEventSource.latest();
    expect(es.params.get('ticket')).toBe('ticket-1');
    expect(es.params.get('sessionKey')).toBe('9158');
    expect(es.params.has('lastEventId')).toBe(false);
    es.open();
    expect(seen.connected).toEqual([{ sessionKey: 9158, transport: 'stream' }]);
    es.emit('flag', flag(5, 'yellow').data, 5);
    es.emit('status', {
      sessionKey: 9158,
      upstream: 'rate-limited',
      transport: 'polling',
      message: 'Rate limited by OpenF1 API. Please wait before retrying.',
    });
    expect(seen.flags).toEqual([5]);
    expect(seen.statuses).toEqual(['Rate limited by OpenF1 API. Please wait before retrying.']);
  });

  test("hands the account's preferences events on, apart from the flags", async () => {
    const { seen } = setup();
    await flush();
    const es = FakeEventSource.latest();
    es.open();
    es.emit('preferences', { version: 3, preferences: { autoConnect: false } });
    expect(seen.preferences).toEqual([{ version: 3, preferences: { autoConnect: false } }]);
    expect(seen.flags).toEqual([]);
  });

  test('a devices event (a companion changed) is handed on; a test event meant for companions is ignored', async () => {
    const { seen } = setup();
    await flush();
    const es = FakeEventSource.latest();
    es.open();
    es.emit('devices', {});
    es.emit('test', { state: 'yellow', requestedAt: '2026-03-08T04:00:00Z' });
    expect(seen.devices).toBe(1);
    expect(seen.flags).toEqual([]);
  });

  test('after an error it closes the stream, takes a new ticket and resumes from the last event id', async () => {
    const { seen, deps } = setup();
    await flush();
    const first = FakeEventSource.latest();
    first.open();
    first.emit('flag', flag(7, 'yellow').data, 7);
    first.emit('flag', flag(8, 'red').data, 8);
    first.fail();
    expect(first.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(streamRetryDelay(1) - 1);
    expect(FakeEventSource.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const second = FakeEventSource.latest();
    expect(second).not.toBe(first);
    expect(second.params.get('ticket')).toBe('ticket-2');
    expect(second.params.get('lastEventId')).toBe('8');
    expect(deps.requestTicket).toHaveBeenCalledTimes(2);
    second.open();
    // The server resends from the ring; a repeat is dropped, the missed one delivered once.
    second.emit('flag', flag(8, 'red').data, 8);
    second.emit('flag', flag(9, 'green').data, 9);
    expect(seen.flags).toEqual([7, 8, 9]);
    expect(seen.connected).toHaveLength(1);
  });
});

describe('the live feed: reconnects and silence', () => {
  test('reconnects back off 1 s, 2 s, 4 s, then every 8 s, and reset once the stream opens', async () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(streamRetryDelay)).toEqual([1000, 2000, 4000, 8000, 8000, 8000, 8000]);
    setup();
    await flush();
    FakeEventSource.latest().open();
    FakeEventSource.latest().fail();
    await vi.advanceTimersByTimeAsync(1000);
    FakeEventSource.latest().fail();
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeEventSource.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.instances).toHaveLength(3);
    FakeEventSource.latest().open();
    FakeEventSource.latest().fail();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeEventSource.instances).toHaveLength(4);
  });

  test('heartbeats keep a quiet stream; silence for LIVE_STREAM_SILENCE_MS closes it, says the server is out of reach, and a new one says it is back', async () => {
    const { seen } = setup();
    await flush();
    const first = FakeEventSource.latest();
    first.open();
    for (let i = 0; i < 10; i += 1) {
      await vi.advanceTimersByTimeAsync(LIVE_STREAM_HEARTBEAT_MS);
      first.emit('heartbeat', {});
    }
    expect(first.closed).toBe(false);
    expect(seen.reachable).toEqual([]);

    await vi.advanceTimersByTimeAsync(LIVE_STREAM_SILENCE_MS - 1);
    expect(seen.reachable).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(first.closed).toBe(true);
    expect(seen.reachable).toEqual([false]);
    await vi.advanceTimersByTimeAsync(streamRetryDelay(1));
    const second = FakeEventSource.latest();
    expect(second).not.toBe(first);
    second.open();
    expect(seen.reachable).toEqual([false, true]);
    expect(seen.connected).toHaveLength(1);
  });

  test('an attempt the server never answers (no ticket, a stream that never opens) is a failed try: the back-off goes on', async () => {
    let hang = false;
    let tickets = 0;
    const { seen, deps } = setup({
      requestTicket: vi.fn(
        (_key?: number, signal?: AbortSignal) =>
          new Promise<string>((resolve, reject) => {
            if (!hang) return resolve(`ticket-${++tickets}`);
            signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    });
    await flush();
    FakeEventSource.latest().open();
    hang = true;
    FakeEventSource.latest().fail();
    expect(seen.reachable).toEqual([false]);
    await vi.advanceTimersByTimeAsync(streamRetryDelay(1));
    expect(deps.requestTicket).toHaveBeenCalledTimes(2);
    hang = false;
    // The hanging ticket is given up; the next try gets one, but its stream is taken and never answered.
    await vi.advanceTimersByTimeAsync(LIVE_STREAM_SILENCE_MS + streamRetryDelay(2));
    expect(FakeEventSource.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(LIVE_STREAM_SILENCE_MS);
    expect(FakeEventSource.latest().closed).toBe(true);
    await vi.advanceTimersByTimeAsync(streamRetryDelay(3));
    expect(FakeEventSource.instances).toHaveLength(3);
    FakeEventSource.latest().open();
    expect(seen.reachable).toEqual([false, true]);
  });
});

describe('the live feed: polling', () => {
  test('polling: a poll without an answer or with a 5xx says the server is out of reach, a 4xx does not, the next answer says it is back', async () => {
    let reply: 'ok' | 'offline' | 'bad-gateway' | 'not-found' = 'ok';
    const fetchState = vi.fn(async (): Promise<LiveStateAnswer> => {
      if (reply === 'offline') throw new TypeError('Failed to fetch');
      if (reply === 'bad-gateway')
        throw new ApiError('Bad gateway', 502, { error: 'Bad gateway', code: 'upstream_unavailable' });
      if (reply === 'not-found')
        throw new ApiError('No live session found', 404, {
          error: 'No live session found',
          code: 'not_found',
        });
      return { sessionKey: 9158, event: null, upstream: null };
    });
    const { seen } = setup({
      fetchState,
      fetchCentralizedStatus: async () => ({ centralizedPollingEnabled: false, isPollingActive: false }),
    });
    await flush();
    reply = 'not-found';
    await vi.advanceTimersByTimeAsync(3000);
    expect(seen.reachable).toEqual([]);
    reply = 'offline';
    await vi.advanceTimersByTimeAsync(3000);
    expect(seen.reachable).toEqual([false]);
    reply = 'ok';
    await vi.advanceTimersByTimeAsync(3000);
    expect(seen.reachable).toEqual([false, true]);
    reply = 'bad-gateway';
    await vi.advanceTimersByTimeAsync(3000);
    expect(seen.reachable).toEqual([false, true, false]);
  });

  test('polling: a poll the server never answers fails after LIVE_STREAM_SILENCE_MS', async () => {
    let hang = false;
    const fetchState = vi.fn(
      (_key?: number, signal?: AbortSignal) =>
        new Promise<LiveStateAnswer>((resolve, reject) => {
          if (!hang) return resolve({ sessionKey: 9158, event: null, upstream: null });
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const { seen } = setup({
      fetchState,
      fetchCentralizedStatus: async () => ({ centralizedPollingEnabled: false, isPollingActive: false }),
    });
    await flush();
    hang = true;
    await vi.advanceTimersByTimeAsync(3000 + LIVE_STREAM_SILENCE_MS - 1);
    expect(seen.reachable).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.reachable).toEqual([false]);
  });

  test('a stream that never opens gives way to polling /api/live/state', async () => {
    const states: LiveStateAnswer[] = [
      { sessionKey: 9158, event: null, upstream: null },
      { sessionKey: 9158, event: flag(3, 'yellow'), upstream: null },
      { sessionKey: 9158, event: flag(3, 'yellow'), upstream: null },
      { sessionKey: 9158, event: flag(4, 'red'), upstream: null },
    ];
    const fetchState = vi.fn(
      async () => states.shift() ?? { sessionKey: 9158, event: flag(4, 'red'), upstream: null },
    );
    const { seen } = setup({ fetchState });
    await flush();
    FakeEventSource.latest().fail();
    await vi.advanceTimersByTimeAsync(1000);
    FakeEventSource.latest().fail();
    await vi.advanceTimersByTimeAsync(2000);
    FakeEventSource.latest().fail();
    expect(seen.transports).toEqual(['polling']);
    await flush();
    expect(seen.connected).toEqual([{ sessionKey: 9158, transport: 'polling' }]);
    expect(seen.flags).toEqual([3]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(seen.flags).toEqual([3]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(seen.flags).toEqual([3, 4]);
    expect(FakeEventSource.instances).toHaveLength(3);
  });

  test('polling backs off 10 s after a 429 and 5 s after more than 3 errors in a row (SPEC §4)', async () => {
    expect(nextPollDelay('ok', 0)).toBe(3000);
    expect(nextPollDelay('rate-limited', 1)).toBe(10_000);
    expect(nextPollDelay('error', 3)).toBe(3000);
    expect(nextPollDelay('error', 4)).toBe(5000);

    let calls = 0;
    const fetchState = vi.fn(async (): Promise<LiveStateAnswer> => {
      calls += 1;
      if (calls === 1) return { sessionKey: 9158, event: null, upstream: null };
      if (calls === 2)
        throw new ApiError('Too many requests', 429, { error: 'Too many requests', code: 'rate_limited' });
      throw new ApiError('Bad gateway', 502, { error: 'Bad gateway', code: 'upstream_unavailable' });
    });
    setup({
      fetchState,
      fetchCentralizedStatus: async () => ({ centralizedPollingEnabled: false, isPollingActive: false }),
    });
    await flush();
    expect(FakeEventSource.instances).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(3000); // call 2: 429
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(9999);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1); // call 3: the second error in a row
    await vi.advanceTimersByTimeAsync(3000); // call 4: the third
    await vi.advanceTimersByTimeAsync(3000); // call 5: the fourth → next in 5 s
    expect(calls).toBe(5);
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toBe(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(6);
  });

  test('without central polling the client polls on its own and opens no stream', async () => {
    const { seen } = setup({
      fetchCentralizedStatus: async () => ({ centralizedPollingEnabled: false, isPollingActive: false }),
    });
    await flush();
    expect(seen.connected).toEqual([{ sessionKey: 9158, transport: 'polling' }]);
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});

describe('the live feed: refusals and stop', () => {
  test('no live session: it fails with the server reason and stops', async () => {
    const { seen, deps } = setup({
      fetchState: async () => {
        throw new ApiError('No live session found', 404, {
          error: 'No live session found',
          code: 'not_found',
        });
      },
    });
    await flush();
    expect(seen.failed).toEqual(['No live session found']);
    expect(deps.requestTicket).not.toHaveBeenCalled();
  });

  test('a ticket refused as unauthenticated fails at once, without retrying', async () => {
    const { seen, deps } = setup({
      requestTicket: vi.fn(async () => {
        throw new ApiError('Session expired', 401, { error: 'Session expired', code: 'unauthenticated' });
      }),
    });
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen.failed).toEqual(['Session expired']);
    expect(deps.requestTicket).toHaveBeenCalledTimes(1);
  });

  test('the ticket is asked for the session the state call pinned', async () => {
    const { deps } = setup();
    await flush();
    expect(deps.requestTicket).toHaveBeenCalledWith(9158, expect.any(AbortSignal));
  });

  test.each([
    [
      429,
      'rate_limited',
      'You already have 10 live streams open. Close one (another tab or device) and try again.',
    ],
    [403, 'trial_expired', 'Your free trial has ended. Upgrade to keep following live sessions.'],
  ] as const)(
    'a ticket refused with %i %s fails at once with the server words, never a retry loop',
    async (status, code, error) => {
      const { seen, deps } = setup({
        requestTicket: vi.fn(async () => {
          throw new ApiError(error, status, { error, code });
        }),
      });
      await flush();
      await vi.advanceTimersByTimeAsync(120_000);
      expect(seen.failed).toEqual([error]);
      expect(deps.requestTicket).toHaveBeenCalledTimes(1);
      expect(FakeEventSource.instances).toHaveLength(0);
    },
  );

  test('stop closes the stream and cancels the pending reconnect', async () => {
    const { feed } = setup();
    await flush();
    const es = FakeEventSource.latest();
    es.open();
    es.fail();
    feed.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(es.closed).toBe(true);
  });
});
