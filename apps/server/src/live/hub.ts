import { MAX_REPLAYS_PER_ACCOUNT, MAX_REPLAYS_PER_ADDRESS } from '@flaglight/contract';
import { isWithinConnectWindow, LiveSessionSchema, type LiveSession } from '@flaglight/core';
import { createInProcessBus } from './bus.js';
import { startLiveFollower } from './follower.js';
import type {
  Channel,
  Listener,
  LiveHubOptions,
  LiveSourceView,
  ReplayDefinition,
  Subscription,
} from './hub-types.js';
import { startReplayFollower } from './replay-follower.js';
import { findReplaySlot, type ReplayOwner } from './replay-slots.js';
import type { BusMessage, FlagEvent, StatusEventData } from './types.js';

export type {
  Listener,
  LiveHubOptions,
  LiveSourceView,
  ReplayDefinition,
  Subscription,
} from './hub-types.js';

/** Events kept per session for `Last-Event-ID` resume. A race has ≈ 50 changes; 256 is hours. */
export const RING_SIZE = 256;
/** A follower keeps going this long after its last subscriber leaves (a page reload, a network blip). */
export const FOLLOWER_LINGER_MS = 60_000;
/**
 * A replay nobody reads (no open stream, no state poll) ends this long after its last reader left,
 * or after it started. Long enough for the web app to come back after a reload or a blip of half a
 * minute (its reconnects wait 1, 2, 4, 8, 16 s); short enough that abandoned replays free their
 * slots (account, address, instance) within a minute.
 */
export const REPLAY_IDLE_MS = 60_000;
/** How long the answer to "which session is live" is reused. */
export const LIVE_SESSION_TTL_MS = 30_000;
/** Replayed sessions get keys from here up, far from OpenF1's (≈ 11 000) and the simulator's (100 001+). */
export const FIRST_REPLAY_SESSION_KEY = 900_000_001;
/** Replays one instance runs at once, whoever started them (each account and address has its own cap too). */
export const MAX_REPLAYS = 200;

export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError';
}

/** A source's `error` in a public answer: one line, at most this long (the words are the server's own). */
export const SOURCE_ERROR_MAX_CHARS = 200;

function publicSourceError(text: string): string {
  const line = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return line.length > SOURCE_ERROR_MAX_CHARS ? `${line.slice(0, SOURCE_ERROR_MAX_CHARS - 1)}…` : line;
}

export type LiveHub = ReturnType<typeof createLiveHub>;

/**
 * The live hub (DESIGN §1): one follower per session, started by its first subscriber and stopped
 * FOLLOWER_LINGER_MS after its last one leaves; events reach subscribers through the bus, and
 * each session keeps a bounded ring of recent events for resume.
 */
export function createLiveHub(options: LiveHubOptions) {
  const { bus, timers, client } = options;
  // Replays belong to the instance that plays them: their keys are only unique here.
  const localBus = createInProcessBus();
  const channels = new Map<number, Channel>();
  let nextReplayKey = FIRST_REPLAY_SESSION_KEY;
  let liveCache: { until: number; session: LiveSession | null } | null = null;
  let liveLookup: Promise<LiveSession | null> | null = null;
  /** OpenF1's health when no follower asks it anything: the last sessions lookup. */
  const lookupHealth: { healthy: boolean; lastMessageAt: number | null; error: string | null } = {
    healthy: false,
    lastMessageAt: null,
    error: null,
  };

  function channelFor(sessionKey: number, kind: Channel['kind'], replay?: ReplayDefinition): Channel {
    const existing = channels.get(sessionKey);
    if (existing) return existing;
    const channel: Channel = {
      sessionKey,
      kind,
      ...(replay ? { replay } : {}),
      owner: null,
      ring: [],
      current: null,
      lastId: 0,
      status: null,
      listeners: new Set(),
      bus: kind === 'replay' ? localBus : bus,
      lease: null,
      follower: null,
      linger: null,
      offBus: () => {},
      loaded: Promise.resolve(),
    };
    // Messages that arrive while the stored history loads wait, then apply after it (ids dedupe).
    let waiting: BusMessage[] | null = [];
    channel.offBus = channel.bus.subscribe(sessionKey, (message) => {
      if (waiting) waiting.push(message);
      else receive(channel, message);
    });
    channel.loaded = channel.bus
      .recent(sessionKey)
      .then((state) => {
        if (state.status) channel.status = state.status;
        for (const event of state.events) receive(channel, { type: 'flag', event });
      })
      .catch((error: unknown) => options.logger?.warn({ err: error, sessionKey }, 'loading history failed'))
      .finally(() => {
        const late = waiting ?? [];
        waiting = null;
        for (const message of late) receive(channel, message);
      });
    channels.set(sessionKey, channel);
    return channel;
  }

  function receive(channel: Channel, message: BusMessage): void {
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
    if (event.data.state !== 'fastest_lap') channel.current = event;
    for (const listener of [...channel.listeners]) listener.onFlag(event);
  }

  function ensureFollower(channel: Channel): void {
    if (channel.linger) {
      timers.clearTimeout(channel.linger);
      channel.linger = null;
    }
    if (channel.follower || channel.lease) return;
    if (channel.kind === 'replay' && channel.replay) {
      channel.follower = startReplayFollower({
        sessionKey: channel.sessionKey,
        ...channel.replay,
        bus: channel.bus,
        timers,
        lastId: channel.lastId,
      });
      // A replay plays on from where it started: a later restart would begin at its position again.
      channel.replay = { ...channel.replay, messages: [] };
      return;
    }
    if (channel.kind !== 'live') return;
    // One follower per session cluster-wide: the lease holder follows, every instance relays.
    channel.lease = channel.bus.lead(channel.sessionKey, {
      onAcquired() {
        if (channel.follower) return;
        channel.follower = startLiveFollower({
          sessionKey: channel.sessionKey,
          client,
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

  function scheduleLinger(channel: Channel): void {
    if (channel.listeners.size > 0 || channel.linger) return;
    if (channels.get(channel.sessionKey) !== channel) return;
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
  }

  /** Ends a replay: its follower stops, its streams are told (and close), its key is free of it. */
  function endReplay(channel: Channel): void {
    stopFollowing(channel);
    if (channel.linger) timers.clearTimeout(channel.linger);
    channel.linger = null;
    channel.offBus();
    channels.delete(channel.sessionKey);
    const listeners = [...channel.listeners];
    channel.listeners.clear();
    for (const listener of listeners) listener.onEnded?.();
  }

  function snapshot(channel: Channel): FlagEvent | null {
    return channel.current ? { id: channel.lastId, data: channel.current.data } : null;
  }

  /**
   * The session live now: the one F1 live timing says is under way (start times move; the feed
   * knows first), else OpenF1's latest within its connect window; OpenF1's row when both agree.
   */
  async function currentLiveSession(): Promise<LiveSession | null> {
    const running = options.f1?.runningSession() ?? null;
    const listed = await openF1LiveSession();
    if (running && listed?.session_key !== running.session_key) return running;
    return listed;
  }

  async function openF1LiveSession(): Promise<LiveSession | null> {
    const now = timers.now();
    if (liveCache && liveCache.until > now) return liveCache.session;
    liveLookup ??= (async () => {
      const result = await client.get<unknown[]>('/v1/sessions?session_key=latest');
      lookupHealth.healthy = result.ok;
      if (result.ok) lookupHealth.lastMessageAt = timers.now();
      lookupHealth.error = result.ok ? null : result.message;
      const rows = result.ok && Array.isArray(result.data) ? result.data : [];
      const parsed = rows.map((row) => LiveSessionSchema.safeParse(row)).filter((p) => p.success);
      const session = parsed.map((p) => p.data).find((s) => !s.is_cancelled) ?? null;
      const live =
        session && isWithinConnectWindow(Date.parse(session.date_start), { now: timers.now() })
          ? session
          : null;
      // A failed lookup is retried sooner than a successful one is refreshed.
      liveCache = { until: timers.now() + (result.ok ? LIVE_SESSION_TTL_MS : 3_000), session: live };
      return live;
    })().finally(() => {
      liveLookup = null;
    });
    return liveLookup;
  }

  /**
   * Starts a replay for `owner` through the hub; clients subscribe to the returned session key.
   * The owner's oldest replays are ended as its caps need (`ended`); others' are never touched:
   * when they hold the address's or the instance's slots, the start is refused.
   */
  function tryStartReplay(
    definition: ReplayDefinition,
    owner: ReplayOwner | null,
  ): { ok: true; sessionKey: number; ended: number[] } | { ok: false; reason: 'address' | 'instance' } {
    // Oldest first: keys only grow.
    const running = [...channels.values()]
      .filter((c) => c.kind === 'replay')
      .sort((a, b) => a.sessionKey - b.sessionKey);
    const slot = findReplaySlot(running, owner, {
      perAccount: MAX_REPLAYS_PER_ACCOUNT,
      perAddress: MAX_REPLAYS_PER_ADDRESS,
      total: MAX_REPLAYS,
    });
    if (!slot.ok) return slot;
    for (const key of slot.end) {
      const old = channels.get(key);
      if (old) endReplay(old);
    }
    const sessionKey = nextReplayKey++;
    const channel = channelFor(sessionKey, 'replay', definition);
    channel.owner = owner;
    ensureFollower(channel);
    scheduleLinger(channel);
    return { ok: true, sessionKey, ended: slot.end };
  }

  /** The channel a client may follow: a replay, or the session live right now. */
  async function resolve(sessionKey: number | undefined): Promise<Channel> {
    if (sessionKey !== undefined) {
      const existing = channels.get(sessionKey);
      if (existing?.kind === 'replay') {
        await existing.loaded;
        return existing;
      }
    }
    const live = await currentLiveSession();
    if (!live) throw new SessionNotFoundError('No live session found');
    if (sessionKey !== undefined && sessionKey !== live.session_key) {
      throw new SessionNotFoundError(`Session ${sessionKey} is neither live nor a running replay`);
    }
    const channel = channelFor(live.session_key, 'live');
    await channel.loaded;
    return channel;
  }

  return {
    currentLiveSession,

    /** Subscribes to a session (the live one when `sessionKey` is omitted). */
    async subscribe(
      sessionKey: number | undefined,
      listener: Listener,
      opts: { lastEventId?: number | undefined } = {},
    ): Promise<Subscription & { sessionKey: number }> {
      const channel = await resolve(sessionKey);
      channel.listeners.add(listener);
      ensureFollower(channel);
      let initial: FlagEvent[] = [];
      const last = opts.lastEventId;
      const first = channel.ring[0];
      if (last !== undefined && first && first.id <= last && last <= channel.lastId) {
        initial = channel.ring.filter((event) => event.id > last);
      } else {
        const current = snapshot(channel);
        if (current && current.id !== last) initial = [current];
      }
      let done = false;
      return {
        sessionKey: channel.sessionKey,
        initial,
        status: channel.status,
        unsubscribe() {
          if (done) return;
          done = true;
          channel.listeners.delete(listener);
          scheduleLinger(channel);
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
      ensureFollower(channel);
      scheduleLinger(channel);
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
      return [...(channels.get(sessionKey)?.ring ?? [])];
    },

    replayInfo(sessionKey: number): Record<string, unknown> | null {
      const channel = channels.get(sessionKey);
      return channel?.kind === 'replay' ? (channel.replay?.info ?? null) : null;
    },

    /**
     * Some live session this instance serves is being followed (SPEC §7 centralized-status): by
     * this instance, or (with Redis) by the instance holding its lease, whose events it relays.
     */
    isPollingActive(): boolean {
      return [...channels.values()].some(
        (c) => c.kind === 'live' && (c.follower !== null || c.lease !== null),
      );
    },

    /** Each configured live source: F1 live timing leads while healthy, OpenF1 stands by. */
    sources(): LiveSourceView[] {
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      const views: LiveSourceView[] = [];
      const f1 = options.f1?.health();
      if (f1) {
        views.push({
          name: 'f1-live-timing',
          state: f1.healthy ? 'active' : 'down',
          lastMessageAt: iso(f1.lastMessageAt),
          ...(f1.error ? { error: publicSourceError(f1.error) } : {}),
        });
      }
      const seen = [...channels.values()]
        .map((c) => (c.kind === 'live' ? c.follower?.openf1?.() : undefined))
        .filter((h): h is NonNullable<typeof h> => h !== undefined && h.healthy !== null);
      const openf1 =
        seen.length === 0
          ? lookupHealth
          : {
              healthy: seen.some((h) => h.healthy === true),
              lastMessageAt: Math.max(...seen.map((h) => h.lastMessageAt ?? 0)) || null,
              error: seen.find((h) => !h.healthy)?.error ?? null,
            };
      views.push({
        name: 'openf1',
        state: !openf1.healthy ? 'down' : f1?.healthy ? 'standby' : 'active',
        lastMessageAt: iso(openf1.lastMessageAt),
        ...(!openf1.healthy && openf1.error ? { error: publicSourceError(openf1.error) } : {}),
      });
      return views;
    },

    stats() {
      return [...channels.values()].map((c) => ({
        sessionKey: c.sessionKey,
        kind: c.kind,
        subscribers: c.listeners.size,
        following: c.follower !== null,
        /** `relay`: another instance leads this session; this one passes its events on. */
        transport: c.follower?.transport() ?? (c.lease ? 'relay' : 'none'),
        lastId: c.lastId,
      }));
    },

    close(): void {
      for (const channel of channels.values()) {
        stopFollowing(channel);
        if (channel.linger) timers.clearTimeout(channel.linger);
        channel.offBus();
      }
      channels.clear();
    },
  };
}
