// The hub's channels: one per session it serves, each holding a bounded ring of recent events.
import { isMomentary } from '@flaglight/core';
import type { Logger } from 'pino';
import { createInProcessBus, type Bus } from './bus.js';
import type { Channel, ReplayDefinition } from './hub-types.js';
import type { BusMessage } from './types.js';

/** Events kept per session for `Last-Event-ID` resume. A race has ≈ 50 changes; 256 is hours. */
export const RING_SIZE = 256;

export type ChannelStore = ReturnType<typeof createChannelStore>;

export function createChannelStore(options: { bus: Bus; logger?: Logger | undefined }) {
  // Replays belong to the instance that plays them: their keys are only unique here.
  const localBus = createInProcessBus();
  const channels = new Map<number, Channel>();

  return {
    get: (sessionKey: number): Channel | undefined => channels.get(sessionKey),
    all: (): Channel[] => [...channels.values()],
    /** The channel is still the one kept for its session (not ended, not replaced). */
    holds: (channel: Channel): boolean => channels.get(channel.sessionKey) === channel,
    remove(channel: Channel): void {
      channels.delete(channel.sessionKey);
    },
    clear(): void {
      channels.clear();
    },

    /** The session's channel, opened (listening to its bus, loading its history) when it is new. */
    channelFor(sessionKey: number, kind: Channel['kind'], replay?: ReplayDefinition): Channel {
      const existing = channels.get(sessionKey);
      if (existing) return existing;
      const channel = openChannel(sessionKey, kind, kind === 'replay' ? localBus : options.bus, replay);
      loadChannel(channel, options.logger);
      channels.set(sessionKey, channel);
      return channel;
    },
  };
}

function openChannel(
  sessionKey: number,
  kind: Channel['kind'],
  bus: Bus,
  replay: ReplayDefinition | undefined,
): Channel {
  return {
    sessionKey,
    kind,
    ...(replay ? { replay } : {}),
    owner: null,
    ring: [],
    current: null,
    lastId: 0,
    status: null,
    listeners: new Set(),
    bus,
    lease: null,
    follower: null,
    linger: null,
    offBus: () => {},
    loaded: Promise.resolve(),
  };
}

/** Listens to the channel's bus and loads what was published on it before. */
function loadChannel(channel: Channel, logger: Logger | undefined): void {
  const { sessionKey } = channel;
  // Messages that arrive while the stored history loads wait, then apply after it (ids dedupe).
  let waiting: BusMessage[] | null = [];
  channel.offBus = channel.bus.subscribe(sessionKey, (message) => {
    if (waiting) waiting.push(message);
    else receiveMessage(channel, message);
  });
  channel.loaded = channel.bus
    .recent(sessionKey)
    .then((state) => {
      if (state.status) channel.status = state.status;
      for (const event of state.events) receiveMessage(channel, { type: 'flag', event });
    })
    .catch((error: unknown) => logger?.warn({ err: error, sessionKey }, 'loading history failed'))
    .finally(() => {
      const late = waiting ?? [];
      waiting = null;
      for (const message of late) receiveMessage(channel, message);
    });
}

/** Applies one bus message to the channel and tells its listeners; an event seen before is dropped. */
function receiveMessage(channel: Channel, message: BusMessage): void {
  if (message.type === 'status') {
    channel.status = message.status;
    for (const listener of [...channel.listeners]) listener.onStatus(message.status);
    return;
  }
  const { event } = message;
  if (event.id <= channel.lastId) return;
  channel.lastId = event.id;
  channel.ring.push(event);
  if (channel.ring.length > RING_SIZE) channel.ring.shift();
  if (!isMomentary(event.data.state)) channel.current = event;
  for (const listener of [...channel.listeners]) listener.onFlag(event);
}
