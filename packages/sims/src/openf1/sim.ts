import { loadBundledSessions } from '@flaglight/data';
import {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { type Clock, systemClock } from '../shared/clock.js';
import { applyFaults, type FaultResponses, Faults } from '../shared/faults.js';
import { requireBundledSession } from '../shared/recording-names.js';
import { RequestLog, splitUrl } from '../shared/request-log.js';
import { registerControlRoutes } from './control-routes.js';
import type { OpenF1SimControl } from './control.js';
import { type Endpoint, ENDPOINTS, latestKeys, rowsAt, toCsv } from './data.js';
import { matchesFilters, parseFilterQuery, usesLatest } from './filters.js';
import { PushBroker, RACE_CONTROL_TOPIC } from './push.js';
import { Replay, type ReplayInfo, type ReplayOptions } from './replay.js';
import { DEFAULT_OPENF1_USERS, TOKEN_LIFETIME_SECONDS, TokenStore } from './tokens.js';

export const SESSION_LOCKED_DETAIL =
  'Session in progress, access is restricted to authenticated users. Sign up here: https://tally.so/r/w2yWDb';
export const RATE_LIMIT_ERROR = 'Rate limit exceeded: 30 per 10 second';
export const NO_RESULTS_DETAIL = 'No results found.';
/** The recording demo mode replays: a safety car, two red flags and four VSCs. */
export const DEMO_REPLAY_FIXTURE = '2021-saudi-arabia-race';
/** Replayed sessions get keys from here up, far above OpenF1's real ones (≈ 11 000 sessions, 1 300 meetings). */
export const FIRST_REPLAY_KEY = 100_001;

const OPENF1_FAULTS: FaultResponses = {
  unauthorized: {
    status: 401,
    contentType: 'application/json',
    body: JSON.stringify({ detail: SESSION_LOCKED_DETAIL }),
  },
  'rate-limit': {
    status: 429,
    contentType: 'application/json',
    body: JSON.stringify({ error: RATE_LIMIT_ERROR }),
  },
  'server-error': {
    status: 500,
    contentType: 'text/html; charset=utf-8',
    body: '<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>Traceback (most recent call last): pymongo.errors.ServerSelectionTimeoutError</p></body></html>\n',
  },
};

export interface OpenF1SimOptions {
  /** The sim's clock (ms since epoch). Default `Date.now`. */
  now?: Clock;
  /** Sessions replayed as live from the start. */
  replays?: ReplayOptions[];
  /** Default speed of replays that do not name one. Default 1. */
  speed?: number;
  /** Answer 401 "Session in progress…" to `/v1/*` calls without a valid Bearer token. Default false. */
  requireToken?: boolean;
  /** Accounts accepted by `POST /token` and, through their tokens, the MQTT broker. Default `flaglight`/`flaglight`. */
  users?: Record<string, string>;
  tokenLifetimeSeconds?: number;
  /** OpenF1's own limiter (30 per 10 s per client address) when set. Default off. */
  rateLimit?: { max: number; windowMs: number } | null;
  /** Serve the `/_control/*` routes. Default true. */
  controlRoutes?: boolean;
  /** Longest wait between checks for newly visible messages to push. Default 250 ms. */
  maxPushPollMs?: number;
  /** Called after the replays change (added, replaced, cleared, re-timed): demo mode mirrors them. */
  onReplaysChanged?: (replays: ReplayInfo[]) => void;
}

export type { OpenF1SimControl } from './control.js';

export interface OpenF1Sim {
  control: OpenF1SimControl;
  /** Register on a Fastify app, optionally under a prefix; MQTT over WebSocket is served at `<prefix>/mqtt`. */
  plugin: FastifyPluginAsync;
  /** Serves MQTT over plain TCP; resolves with the port. */
  listenMqtt(port?: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

export function resolveStart(options: ReplayOptions, now: number, speed: number): number {
  if (typeof options.startedAt === 'number') return options.startedAt;
  if (typeof options.startedAt === 'string') {
    const ms = Date.parse(options.startedAt);
    if (Number.isNaN(ms)) throw new Error(`startedAt is not a date: ${options.startedAt}`);
    return ms;
  }
  if (options.positionMinutes !== undefined && speed > 0)
    return now - (options.positionMinutes * 60_000) / speed;
  return now - (options.startedMinutesAgo ?? 0) * 60_000;
}

/** Builds the OpenF1 simulator: replays, tokens, faults and the MQTT broker. Serve it with `plugin`. */
export async function createOpenF1Sim(options: OpenF1SimOptions = {}): Promise<OpenF1Sim> {
  const now = options.now ?? systemClock;
  const defaultSpeed = options.speed ?? 1;
  const faults = new Faults();
  const log = new RequestLog(now);
  const tokens = new TokenStore(
    now,
    options.users ?? DEFAULT_OPENF1_USERS,
    options.tokenLifetimeSeconds ?? TOKEN_LIFETIME_SECONDS,
  );
  let tokenRequired = options.requireToken ?? false;
  let rateLimit = options.rateLimit ?? null;
  const hits = new Map<string, number[]>();
  let replays: Replay[] = [];
  let nextKey = FIRST_REPLAY_KEY;
  let refuseUntil = 0;
  let nextId = 1;
  let publishing: Promise<unknown> = Promise.resolve();
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  const push = await PushBroker.create((username, password) => {
    if (now() < refuseUntil) return 3;
    if (!username || !tokens.isValid(password)) return 4;
    return null;
  });

  function addReplay(o: ReplayOptions): Replay {
    const bundle = requireBundledSession(o.fixture);
    const speed = o.speed ?? defaultSpeed;
    if (!Number.isFinite(speed) || speed < 0) throw new Error('speed must be a number ≥ 0');
    const key = nextKey++;
    const replay = new Replay(
      bundle,
      o.sessionKey ?? key,
      o.meetingKey ?? key,
      resolveStart(o, now(), speed),
      speed,
    );
    // What showed before the replay was set up happened "in the past": it is in REST, never pushed.
    replay.published = replay.visibleCount(now());
    replays.push(replay);
    schedule();
    return replay;
  }

  function tick(): Promise<number> {
    const t = now();
    const due: { at: number; replay: Replay; index: number }[] = [];
    for (const r of replays) {
      const n = r.visibleCount(t);
      for (let i = r.published; i < n; i += 1) due.push({ at: r.messageVisibleAt(i), replay: r, index: i });
      r.published = Math.max(r.published, n);
    }
    due.sort((a, b) => a.at - b.at);
    const payloads = due.map(({ replay, index }) => ({
      ...replay.liveRow(index),
      _id: nextId++,
      _key: `${replay.sessionKey}_${index}`,
    }));
    const done = publishing.then(async () => {
      for (const p of payloads) await push.publish(RACE_CONTROL_TOPIC, p);
      return payloads.length;
    });
    publishing = done;
    return done;
  }

  function schedule(): void {
    if (closed) return;
    if (timer) clearTimeout(timer);
    const t = now();
    let next = Infinity;
    for (const r of replays) {
      if (r.published < r.bundle.messages.length) next = Math.min(next, r.messageVisibleAt(r.published));
    }
    const wait = Math.min(options.maxPushPollMs ?? 250, Math.max(1, next - t));
    timer = setTimeout(() => {
      timer = null;
      void tick();
      schedule();
    }, wait);
    timer.unref();
  }

  for (const r of options.replays ?? []) addReplay(r);
  schedule();

  const changed = () => options.onReplaysChanged?.(replays.map((r) => r.info(now())));

  const control: OpenF1SimControl = {
    replay(o) {
      const info = addReplay(o).info(now());
      changed();
      return info;
    },
    setReplays(list) {
      const previous = replays;
      replays = [];
      try {
        const infos = list.map((o) => addReplay(o).info(now()));
        changed();
        return infos;
      } catch (error) {
        // All or nothing: a bad entry leaves the replays as they were.
        replays = previous;
        schedule();
        throw error;
      }
    },
    clearReplays() {
      replays = [];
      changed();
    },
    replays: () => replays.map((r) => r.info(now())),
    setSpeed(speed) {
      if (!Number.isFinite(speed) || speed < 0) throw new Error('speed must be a number ≥ 0');
      for (const r of replays) r.setSpeed(speed, now());
      schedule();
      changed();
    },
    fault: (spec) => faults.add(spec),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    requireToken(required) {
      tokenRequired = required;
    },
    setRateLimit(limit) {
      rateLimit = limit;
      hits.clear();
    },
    dropPush(o = {}) {
      refuseUntil = o.refuseForMs ? now() + o.refuseForMs : 0;
      return push.dropClients();
    },
    pushClients: () => push.connectedClients,
    tick,
    requestCount: (path, since) => log.count(path, since),
    requestCounts: () => log.counts(),
    requestLog: () => log.list(),
    resetRequests: () => log.reset(),
    issueToken: (username = 'test') => tokens.issue(username),
    expireTokens: () => tokens.expireAll(),
    now,
  };

  function isRateLimited(ip: string): boolean {
    if (!rateLimit) return false;
    const t = now();
    const recent = (hits.get(ip) ?? []).filter((at) => at > t - rateLimit!.windowMs);
    recent.push(t);
    hits.set(ip, recent);
    return recent.length > rateLimit.max;
  }

  const plugin: FastifyPluginAsync = async (app: FastifyInstance) => {
    const prefix = app.prefix;
    const pathOf = (request: FastifyRequest): string | null => {
      const { path } = splitUrl(request.url, prefix);
      return path.startsWith('/_control') ? null : path;
    };

    push.attachWebSocket(app.server, `${prefix}/mqtt`);
    // preClose, not onClose: open WebSocket connections would keep the HTTP server from closing.
    app.addHook('preClose', async () => {
      push.detachWebSocket(app.server);
      await close();
    });

    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    app.addHook('onRequest', async (request, reply) => {
      const path = pathOf(request);
      if (path === null) return;
      log.record(request.method, path, splitUrl(request.url, prefix).query);
      if (isRateLimited(request.ip)) {
        return reply.code(429).type('application/json').send({ error: RATE_LIMIT_ERROR });
      }
    });
    applyFaults(app, faults, OPENF1_FAULTS, pathOf);

    app.post('/token', async (request: FastifyRequest, reply: FastifyReply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const username = typeof body.username === 'string' ? body.username : '';
      const password = typeof body.password === 'string' ? body.password : '';
      if (!username || !password) {
        return reply.code(422).send({ detail: 'username and password are required (form-encoded)' });
      }
      const token = tokens.exchange(username, password);
      if (!token) return reply.code(401).send({ detail: 'Invalid username or password' });
      return { expires_in: String(tokens.lifetimeSeconds), access_token: token, token_type: 'bearer' };
    });

    app.get(
      '/v1/:endpoint',
      async (request: FastifyRequest<{ Params: { endpoint: string } }>, reply: FastifyReply) => {
        if (tokenRequired) {
          const token = bearerToken(request);
          if (!token) return reply.code(401).send({ detail: SESSION_LOCKED_DETAIL });
          if (!tokens.isValid(token))
            return reply.code(401).send({ detail: 'Could not validate credentials' });
        }
        const endpoint = request.params.endpoint as Endpoint;
        if (!ENDPOINTS.includes(endpoint)) return reply.code(404).send({ detail: 'Not Found' });
        const parsed = parseFilterQuery(splitUrl(request.url, prefix).query);
        if (!parsed.ok) return reply.code(422).send({ detail: parsed.error });
        const { filters, csv } = parsed.query;
        if (endpoint === 'location' && !filters.has('session_key')) {
          return reply
            .code(422)
            .send({ detail: 'Query too large: filter location by session_key (and driver_number, date).' });
        }
        const t = now();
        const latest = usesLatest(filters)
          ? latestKeys(replays, t)
          : { session_key: null, meeting_key: null };
        const rows = rowsAt(endpoint, replays, t).filter((row) => matchesFilters(row, filters, latest));
        if (rows.length === 0) return reply.code(404).send({ detail: NO_RESULTS_DETAIL });
        if (csv) {
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename=${endpoint}.csv`)
            .send(toCsv(rows));
        }
        return rows;
      },
    );

    if (options.controlRoutes ?? true) registerControlRoutes(app, control, () => loadBundledSessions());
  };

  async function listenMqtt(port = 0, host = '127.0.0.1'): Promise<number> {
    return push.listenTcp(port, host);
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    await push.close();
  }

  return { control, plugin, listenMqtt, close };
}
