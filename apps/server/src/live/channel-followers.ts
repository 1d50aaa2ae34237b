// Who follows each channel's session upstream, and when a follower stops or a replay ends.
import type { ChannelStore } from './channel-store.js';
import { startLiveFollower } from './follower.js';
import type { Channel, LiveHubOptions, ReplayDefinition } from './hub-types.js';
import { startReplayFollower } from './replay-follower.js';

/** A follower keeps going this long after its last subscriber leaves (a page reload, a network blip). */
export const FOLLOWER_LINGER_MS = 60_000;
/**
 * A replay nobody reads (no open stream, no state poll) ends this long after its last reader left,
 * or after it started. Long enough for the web app to come back after a reload or a blip of half a
 * minute (its reconnects wait 1, 2, 4, 8, 16 s); short enough that abandoned replays free their
 * slots (account, address, instance) within a minute.
 */
export const REPLAY_IDLE_MS = 60_000;

export type ChannelFollowers = ReturnType<typeof createChannelFollowers>;

export function createChannelFollowers(options: LiveHubOptions, store: ChannelStore) {
  const { timers } = options;

  function startReplay(channel: Channel, replay: ReplayDefinition): void {
    channel.follower = startReplayFollower({
      sessionKey: channel.sessionKey,
      ...replay,
      bus: channel.bus,
      timers,
      lastId: channel.lastId,
    });
    // A replay plays on from where it started: a later restart would begin at its position again.
    channel.replay = { ...replay, messages: [] };
  }

  function leadLive(channel: Channel): void {
    // One follower per session cluster-wide: the lease holder follows, every instance relays.
    channel.lease = channel.bus.lead(channel.sessionKey, {
      onAcquired() {
        if (channel.follower) return;
        channel.follower = startLiveFollower({
          sessionKey: channel.sessionKey,
          client: options.client,
          bus: channel.bus,
          timers,
          lastId: channel.lastId,
          known: channel.current?.data ?? null,
          ...(options.logger ? { logger: options.logger } : {}),
          connectPush: options.connectPush,
          f1: options.f1,
        });
      },
      onLost() {
        channel.follower?.stop();
        channel.follower = null;
      },
    });
  }

  function stopFollowing(channel: Channel): void {
    channel.lease?.release();
    channel.lease = null;
    channel.follower?.stop();
    channel.follower = null;
  }

  function clearLinger(channel: Channel): void {
    if (channel.linger) timers.clearTimeout(channel.linger);
    channel.linger = null;
  }

  /** Ends a replay: its follower stops, its streams are told (and close), its key is free of it. */
  function endReplay(channel: Channel): void {
    stopFollowing(channel);
    clearLinger(channel);
    channel.offBus();
    store.remove(channel);
    const listeners = [...channel.listeners];
    channel.listeners.clear();
    for (const listener of listeners) listener.onEnded?.();
  }

  return {
    stopFollowing,
    endReplay,

    /** Someone reads the channel: any pending stop is off, and its session is followed. */
    ensureFollower(channel: Channel): void {
      clearLinger(channel);
      if (channel.follower || channel.lease) return;
      if (channel.kind === 'replay' && channel.replay) startReplay(channel, channel.replay);
      else if (channel.kind === 'live') leadLive(channel);
    },

    /** Nobody reads the channel: its follower stops (a replay ends) after a while unless one comes back. */
    scheduleLinger(channel: Channel): void {
      if (channel.listeners.size > 0 || channel.linger) return;
      if (!store.holds(channel)) return;
      channel.linger = timers.setTimeout(
        () => {
          channel.linger = null;
          if (channel.listeners.size > 0) return;
          // A replay nobody watches is over.
          if (channel.kind === 'replay') endReplay(channel);
          else stopFollowing(channel);
        },
        channel.kind === 'replay' ? REPLAY_IDLE_MS : FOLLOWER_LINGER_MS,
      );
    },

    /** Stops every follower and pending stop, and leaves every bus (the hub closes). */
    closeAll(): void {
      for (const channel of store.all()) {
        stopFollowing(channel);
        if (channel.linger) timers.clearTimeout(channel.linger);
        channel.offBus();
      }
      store.clear();
    },
  };
}
