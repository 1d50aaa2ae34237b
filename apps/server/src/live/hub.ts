import { MAX_REPLAYS_PER_ACCOUNT, MAX_REPLAYS_PER_ADDRESS } from '@flaglight/contract';
import { createChannelFollowers } from './channel-followers.js';
import { createChannelStore, type ChannelStore } from './channel-store.js';
import type {
  Channel,
  Listener,
  LiveHubOptions,
  LiveSourceView,
  ReplayDefinition,
  Subscription,
} from './hub-types.js';
import { createLiveSessionLookup } from './live-session-lookup.js';
import { findReplaySlot, type ReplayOwner } from './replay-slots.js';
import { describeSources } from './source-views.js';
import type { FlagEvent, StatusEventData } from './types.js';

export type {
  Listener,
  LiveHubOptions,
  LiveSourceView,
  ReplayDefinition,
  Subscription,
} from './hub-types.js';
export { FOLLOWER_LINGER_MS, REPLAY_IDLE_MS } from './channel-followers.js';
export { RING_SIZE } from './channel-store.js';
export { LIVE_SESSION_TTL_MS } from './live-session-lookup.js';
export { SOURCE_ERROR_MAX_CHARS } from './source-views.js';

/** Replayed sessions get keys from here up, far from OpenF1's (≈ 11 000) and the simulator's (100 001+). */
export const FIRST_REPLAY_SESSION_KEY = 900_000_001;
/** Replays one instance runs at once, whoever started them (each account and address has its own cap too). */
export const MAX_REPLAYS = 200;

export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError';
}

export type LiveHub = ReturnType<typeof createLiveHub>;

type ReplayStart =
  { ok: true; sessionKey: number; ended: number[] } | { ok: false; reason: 'address' | 'instance' };

function snapshot(channel: Channel): FlagEvent | null {
  return channel.current ? { id: channel.lastId, data: channel.current.data } : null;
}

/** What a new subscriber gets first: every event after `last` when the ring still has them, else the current state. */
function initialEvents(channel: Channel, last: number | undefined): FlagEvent[] {
  const first = channel.ring[0];
  if (last !== undefined && first && first.id <= last && last <= channel.lastId) {
    return channel.ring.filter((event) => event.id > last);
  }
  const current = snapshot(channel);
  return current && current.id !== last ? [current] : [];
}

/** The running replays, oldest first (keys only grow). */
function runningReplays(store: ChannelStore): Channel[] {
  return store
    .all()
    .filter((c) => c.kind === 'replay')
    .sort((a, b) => a.sessionKey - b.sessionKey);
}

function describeChannels(store: ChannelStore) {
  return store.all().map((c) => ({
    sessionKey: c.sessionKey,
    kind: c.kind,
    subscribers: c.listeners.size,
    following: c.follower !== null,
    /** `relay`: another instance leads this session; this one passes its events on. */
    transport: c.follower?.transport() ?? (c.lease ? 'relay' : 'none'),
    lastId: c.lastId,
  }));
}

/**
 * The live hub (DESIGN §1): one follower per session, started by its first subscriber and stopped
 * FOLLOWER_LINGER_MS after its last one leaves; events reach subscribers through the bus, and
 * each session keeps a bounded ring of recent events for resume.
 */
export function createLiveHub(options: LiveHubOptions) {
  const store = createChannelStore(options);
  const followers = createChannelFollowers(options, store);
  const lookup = createLiveSessionLookup(options);
  let nextReplayKey = FIRST_REPLAY_SESSION_KEY;

  /**
   * Starts a replay for `owner` through the hub; clients subscribe to the returned session key.
   * The owner's oldest replays are ended as its caps need (`ended`); others' are never touched:
   * when they hold the address's or the instance's slots, the start is refused.
   */
  function tryStartReplay(definition: ReplayDefinition, owner: ReplayOwner | null): ReplayStart {
    const slot = findReplaySlot(runningReplays(store), owner, {
      perAccount: MAX_REPLAYS_PER_ACCOUNT,
      perAddress: MAX_REPLAYS_PER_ADDRESS,
      total: MAX_REPLAYS,
    });
    if (!slot.ok) return slot;
    for (const key of slot.end) {
      const old = store.get(key);
      if (old) followers.endReplay(old);
    }
    const sessionKey = nextReplayKey++;
    const channel = store.channelFor(sessionKey, 'replay', definition);
    channel.owner = owner;
    // A fan's replay starts playing when its first reader comes (`subscribe`, `state`), so it begins
    // where it was asked to: started on the POST, a page that took 18 s to connect on a loaded
    // machine missed a jumped-to double yellow of 18 s entirely. A replay nobody owns
    // (`startReplay` below: no route starts one, tests do) plays at once, watched or not.
    if (owner === null) followers.ensureFollower(channel);
    followers.scheduleLinger(channel);
    return { ok: true, sessionKey, ended: slot.end };
  }

  /** The channel a client may follow: a replay, or the session live right now. */
  async function resolve(sessionKey: number | undefined): Promise<Channel> {
    if (sessionKey !== undefined) {
      const existing = store.get(sessionKey);
      if (existing?.kind === 'replay') {
        await existing.loaded;
        return existing;
      }
    }
    const live = await lookup.currentLiveSession();
    if (!live) throw new SessionNotFoundError('No live session found');
    if (sessionKey !== undefined && sessionKey !== live.session_key) {
      throw new SessionNotFoundError(`Session ${sessionKey} is neither live nor a running replay`);
    }
    const channel = store.channelFor(live.session_key, 'live');
    await channel.loaded;
    return channel;
  }

  return {
    currentLiveSession: () => lookup.currentLiveSession(),

    /** Subscribes to a session (the live one when `sessionKey` is omitted). */
    async subscribe(
      sessionKey: number | undefined,
      listener: Listener,
      opts: { lastEventId?: number | undefined } = {},
    ): Promise<Subscription & { sessionKey: number }> {
      const channel = await resolve(sessionKey);
      channel.listeners.add(listener);
      followers.ensureFollower(channel);
      const initial = initialEvents(channel, opts.lastEventId);
      let done = false;
      return {
        sessionKey: channel.sessionKey,
        initial,
        status: channel.status,
        unsubscribe() {
          if (done) return;
          done = true;
          channel.listeners.delete(listener);
          followers.scheduleLinger(channel);
        },
      };
    },

    /** The fallback for clients without a stream: the current state (starting a follower if needed). */
    async state(sessionKey: number | undefined): Promise<{
      sessionKey: number;
      event: FlagEvent | null;
      status: StatusEventData | null;
    }> {
      const channel = await resolve(sessionKey);
      followers.ensureFollower(channel);
      followers.scheduleLinger(channel);
      return { sessionKey: channel.sessionKey, event: snapshot(channel), status: channel.status };
    },

    tryStartReplay,

    /** Starts a replay nobody owns (the server's own, tests); throws when the instance is full. */
    startReplay(definition: ReplayDefinition): number {
      const started = tryStartReplay(definition, null);
      if (!started.ok) throw new Error('too many replays');
      return started.sessionKey;
    },

    /** The flag events this instance kept of a session, oldest first (at most RING_SIZE). */
    flagHistory(sessionKey: number): FlagEvent[] {
      return [...(store.get(sessionKey)?.ring ?? [])];
    },

    replayInfo(sessionKey: number): Record<string, unknown> | null {
      const channel = store.get(sessionKey);
      return channel?.kind === 'replay' ? (channel.replay?.info ?? null) : null;
    },

    /**
     * Some live session this instance serves is being followed (SPEC §7 centralized-status): by
     * this instance, or (with Redis) by the instance holding its lease, whose events it relays.
     */
    isPollingActive(): boolean {
      return store.all().some((c) => c.kind === 'live' && (c.follower !== null || c.lease !== null));
    },

    /** Each configured live source: F1 live timing leads while healthy, OpenF1 stands by. */
    sources(): LiveSourceView[] {
      return describeSources(options.f1?.health(), store.all(), lookup.health);
    },

    stats: () => describeChannels(store),

    close: () => followers.closeAll(),
  };
}
