import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Clock } from '../shared/clock.js';
import { splitUrl } from '../shared/request-log.js';
import { type Endpoint, ENDPOINTS, latestKeys, rowsAt, toCsv } from './data.js';
import { matchesFilters, parseFilterQuery, usesLatest } from './filters.js';
import type { Replay } from './replay.js';
import type { TokenStore } from './tokens.js';

export const SESSION_LOCKED_DETAIL =
  'Session in progress, access is restricted to authenticated users. Sign up here: https://tally.so/r/w2yWDb';
export const NO_RESULTS_DETAIL = 'No results found.';

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

export interface RestRouteDeps {
  now: Clock;
  tokens: TokenStore;
  /** Whether `/v1/*` answers only a valid Bearer token now. */
  tokenRequired(): boolean;
  /** The replays running now. */
  replays(): Replay[];
}

/**
 * OpenF1's REST face: `POST /token` (form-encoded credentials) and `GET /v1/:endpoint` with its
 * filters, `csv=true`, and its 401, 404 and 422 answers.
 */
export function registerRestRoutes(app: FastifyInstance, deps: RestRouteDeps): void {
  const { now, tokens } = deps;
  const prefix = app.prefix;

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
      if (deps.tokenRequired()) {
        const token = bearerToken(request);
        if (!token) return reply.code(401).send({ detail: SESSION_LOCKED_DETAIL });
        if (!tokens.isValid(token)) return reply.code(401).send({ detail: 'Could not validate credentials' });
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
      const replays = deps.replays();
      const latest = usesLatest(filters) ? latestKeys(replays, t) : { session_key: null, meeting_key: null };
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
}
