import { type BundledCalendar, type ErgastRace, loadCalendar2026, raceStart } from '@flaglight/data';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { type Clock, systemClock } from '../shared/clock.js';
import {
  type ActiveFault,
  applyFaults,
  FAULT_KINDS,
  type FaultKind,
  type FaultResponses,
  Faults,
  type FaultSpec,
} from '../shared/faults.js';
import { type LoggedRequest, RequestLog, splitUrl } from '../shared/request-log.js';

export const JOLPICA_THROTTLED_DETAIL = 'Request was throttled. Expected available in 1 second.';
/** A race counts as run (for `last`/`next`) this long after its start, about when results appear. */
export const RACE_RESULTS_AFTER_MS = 3 * 3_600_000;
const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 100;

const JOLPICA_FAULTS: FaultResponses = {
  unauthorized: {
    status: 401,
    contentType: 'application/json',
    body: JSON.stringify({ detail: 'Authentication credentials were not provided.' }),
  },
  'rate-limit': {
    status: 429,
    contentType: 'application/json',
    body: JSON.stringify({ detail: JOLPICA_THROTTLED_DETAIL }),
  },
  'server-error': {
    status: 500,
    contentType: 'text/html; charset=utf-8',
    body: '<!doctype html>\n<html lang="en">\n<head>\n  <title>Server Error (500)</title>\n</head>\n<body>\n  <h1>Server Error (500)</h1><p></p>\n</body>\n</html>\n',
  },
};

export interface JolpicaSimOptions {
  now?: Clock;
  /** Seasons served; default the bundled 2026 calendar. `current` is the newest season given. */
  calendars?: BundledCalendar[];
  /** Serve `/_control/*`. Default true. */
  controlRoutes?: boolean;
}

export interface JolpicaSimControl {
  fault(spec: FaultSpec): ActiveFault;
  clearFaults(): void;
  faults(): ActiveFault[];
  requestCount(path?: string, since?: number): number;
  requestCounts(): Record<string, number>;
  requestLog(): LoggedRequest[];
  resetRequests(): void;
  now(): number;
}

export interface JolpicaSim {
  control: JolpicaSimControl;
  /** Register on a Fastify app, optionally under a prefix (demo: `/sims/jolpica`). */
  plugin: FastifyPluginAsync;
}

type Selection = { kind: 'season' } | { kind: 'round'; round: string };

function parseErgastPath(path: string): { season: string; selection: Selection } | null {
  const m = /^\/ergast\/f1\/(.+?)(?:\.json|\/)?$/.exec(path);
  if (!m) return null;
  const parts = m[1]!.split('/');
  if (parts[parts.length - 1] === 'races') parts.pop();
  const [season, round, ...rest] = parts;
  if (!season || rest.length > 0 || !/^(current|\d{4})$/.test(season)) return null;
  if (round === undefined) return { season, selection: { kind: 'season' } };
  if (!/^(\d+|last|next)$/.test(round)) return null;
  return { season, selection: { kind: 'round', round } };
}

function pickRound(races: ErgastRace[], round: string, now: number): ErgastRace[] {
  if (round === 'next') {
    const next = races.find((r) => raceStart(r) + RACE_RESULTS_AFTER_MS > now);
    return next ? [next] : [];
  }
  if (round === 'last') {
    const run = races.filter((r) => raceStart(r) + RACE_RESULTS_AFTER_MS <= now);
    return run.length ? [run[run.length - 1]!] : [];
  }
  return races.filter((r) => r.round === String(Number(round)));
}

function intParam(value: unknown, fallback: number, max: number): number {
  const n = typeof value === 'string' ? Number.parseInt(value, 10) : NaN;
  return Number.isNaN(n) || n < 0 ? fallback : Math.min(n, max);
}

/** Builds the Jolpica (Ergast-compatible) schedule simulator. */
export function createJolpicaSim(options: JolpicaSimOptions = {}): JolpicaSim {
  const now = options.now ?? systemClock;
  const calendars = options.calendars ?? [loadCalendar2026()];
  const newest = calendars.reduce((a, b) => (Number(b.season) > Number(a.season) ? b : a), calendars[0]!);
  const faults = new Faults();
  const log = new RequestLog(now);

  const control: JolpicaSimControl = {
    fault: (spec) => faults.add(spec),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    requestCount: (path, since) => log.count(path, since),
    requestCounts: () => log.counts(),
    requestLog: () => log.list(),
    resetRequests: () => log.reset(),
    now,
  };

  const plugin: FastifyPluginAsync = async (app: FastifyInstance) => {
    const prefix = app.prefix;
    const pathOf = (request: FastifyRequest): string | null => {
      const { path } = splitUrl(request.url, prefix);
      return path.startsWith('/_control') ? null : path;
    };
    app.addHook('onRequest', async (request) => {
      const path = pathOf(request);
      if (path !== null) log.record(request.method, path, splitUrl(request.url, prefix).query);
    });
    applyFaults(app, faults, JOLPICA_FAULTS, pathOf);

    app.get('/ergast/f1/*', async (request: FastifyRequest, reply: FastifyReply) => {
      const { path } = splitUrl(request.url, prefix);
      const parsed = parseErgastPath(path);
      if (!parsed) return reply.code(404).send({ detail: 'Not found.' });
      const calendar =
        parsed.season === 'current' ? newest : calendars.find((c) => c.season === parsed.season);
      const all = calendar?.Races ?? [];
      const selected =
        parsed.selection.kind === 'round' ? pickRound(all, parsed.selection.round, now()) : all;
      const query = request.query as Record<string, unknown>;
      const limit = intParam(query.limit, DEFAULT_LIMIT, MAX_LIMIT);
      const offset = intParam(query.offset, 0, Number.MAX_SAFE_INTEGER);
      const season = calendar?.season ?? parsed.season;
      const raceTable: Record<string, unknown> = { season };
      if (parsed.selection.kind === 'round') raceTable.round = selected[0]?.round ?? parsed.selection.round;
      raceTable.Races = selected.slice(offset, offset + limit);
      return {
        MRData: {
          xmlns: '',
          series: 'f1',
          url: `http://api.jolpi.ca${path}`,
          limit: String(limit),
          offset: String(offset),
          total: String(selected.length),
          RaceTable: raceTable,
        },
      };
    });

    if (options.controlRoutes ?? true) {
      app.get('/_control', async () => ({ faults: control.faults(), requests: control.requestCounts() }));
      app.post('/_control/faults', async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        if (!FAULT_KINDS.includes(body.kind as FaultKind)) {
          return reply.code(400).send({ error: `kind must be one of ${FAULT_KINDS.join(', ')}` });
        }
        const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
        const spec: FaultSpec = {
          kind: body.kind as FaultKind,
          times: num(body.times),
          delayMs: num(body.delayMs),
          path: typeof body.path === 'string' ? body.path : undefined,
        };
        return reply.code(201).send(control.fault(spec));
      });
      app.delete('/_control/faults', async () => {
        control.clearFaults();
        return { ok: true };
      });
      app.get('/_control/requests', async () => ({
        counts: control.requestCounts(),
        log: control.requestLog(),
      }));
      app.delete('/_control/requests', async () => {
        control.resetRequests();
        return { ok: true };
      });
    }
  };

  return { control, plugin };
}

export interface StartJolpicaSimOptions extends JolpicaSimOptions {
  port?: number;
  host?: string;
}

export interface RunningJolpicaSim {
  /** Base URL: `${url}/ergast/f1/current.json`. */
  url: string;
  control: JolpicaSimControl;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Runs the Jolpica simulator on its own HTTP server, for tests and tools. */
export async function startJolpicaSim(options: StartJolpicaSimOptions = {}): Promise<RunningJolpicaSim> {
  const host = options.host ?? '127.0.0.1';
  const sim = createJolpicaSim(options);
  const app = Fastify({ logger: false });
  await app.register(sim.plugin);
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://${host}:${port}`, control: sim.control, app, close: () => app.close() };
}
