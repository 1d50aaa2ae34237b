import { loadBundledSessions } from '@flaglight/data';
import { type FastifyInstance, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import { type Clock, systemClock } from '../shared/clock.js';
import { applyFaults, type FaultResponses, Faults } from '../shared/faults.js';
import { RequestLog, splitUrl } from '../shared/request-log.js';
import { registerControlRoutes } from './control-routes.js';
import type { OpenF1SimControl } from './control.js';
import { PushBroker } from './push.js';
import { ReplayPublisher } from './replay-publisher.js';
import { type ReplayInfo, type ReplayOptions } from './replay.js';
import { registerRestRoutes, SESSION_LOCKED_DETAIL } from './rest-routes.js';
import { DEFAULT_OPENF1_USERS, TOKEN_LIFETIME_SECONDS, TokenStore } from './tokens.js';

export { FIRST_REPLAY_KEY, resolveStart } from './replay-publisher.js';
export { NO_RESULTS_DETAIL, SESSION_LOCKED_DETAIL } from './rest-routes.js';

export const RATE_LIMIT_ERROR = 'Rate limit exceeded: 30 per 10 second';
/** The recording demo mode replays: a safety car, two red flags and four VSCs. */
export const DEMO_REPLAY_FIXTURE = '2021-saudi-arabia-race';

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
  let refuseUntil = 0;

  const push = await PushBroker.create((username, password) => {
    if (now() < refuseUntil) return 3;
    if (!username || !tokens.isValid(password)) return 4;
    return null;
  });

  const publisher = new ReplayPublisher(push, now, defaultSpeed, options.maxPushPollMs ?? 250);
  for (const r of options.replays ?? []) publisher.add(r);
  publisher.schedule();

  const changed = () => options.onReplaysChanged?.(publisher.replays.map((r) => r.info(now())));

  const control: OpenF1SimControl = {
    replay(o) {
      const info = publisher.add(o).info(now());
      changed();
      return info;
    },
    setReplays(list) {
      const previous = publisher.replays;
      publisher.replays = [];
      try {
        const infos = list.map((o) => publisher.add(o).info(now()));
        changed();
        return infos;
      } catch (error) {
        // All or nothing: a bad entry leaves the replays as they were.
        publisher.replays = previous;
        publisher.schedule();
        throw error;
      }
    },
    clearReplays() {
      publisher.replays = [];
      changed();
    },
    replays: () => publisher.replays.map((r) => r.info(now())),
    setSpeed(speed) {
      if (!Number.isFinite(speed) || speed < 0) throw new Error('speed must be a number ≥ 0');
      for (const r of publisher.replays) r.setSpeed(speed, now());
      publisher.schedule();
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
    tick: () => publisher.tick(),
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

    registerRestRoutes(app, {
      now,
      tokens,
      tokenRequired: () => tokenRequired,
      replays: () => publisher.replays,
    });

    if (options.controlRoutes ?? true) registerControlRoutes(app, control, () => loadBundledSessions());
  };

  async function listenMqtt(port = 0, host = '127.0.0.1'): Promise<number> {
    return push.listenTcp(port, host);
  }

  async function close(): Promise<void> {
    if (publisher.stopped) return;
    publisher.stop();
    await push.close();
  }

  return { control, plugin, listenMqtt, close };
}
