import {
  CurrentLiveSessionDataSchema,
  CurrentRaceDataSchema,
  FlagEventDataSchema,
  RaceSchema,
  ReplayChoiceSchema,
  StatusEventDataSchema,
} from '@flaglight/core';
import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';
import {
  MAX_REPLAY_SPEED,
  MAX_REPLAY_START_MINUTES,
  MAX_REPLAYS_PER_ACCOUNT,
  MAX_REPLAYS_PER_ADDRESS,
  MAX_STREAMS_PER_USER,
  MIN_REPLAY_SPEED,
  STREAM_TICKETS_PER_MINUTE,
} from '../limits.js';
import { safeString } from '../strings.js';

const sessionKey = z.coerce.number().int().positive().max(2_000_000_000).optional();

export const liveRoutes = {
  ticket: defineRoute({
    method: 'POST',
    path: '/api/live/ticket',
    auth: 'device',
    plan: 'live',
    summary: 'A short-lived, single-use ticket that opens one event stream',
    description:
      `With \`sessionKey\` the ticket opens only that session's stream (a running replay needs no active ` +
      `plan). At most ${MAX_STREAMS_PER_USER} streams per account are open at once, and ` +
      `${STREAM_TICKETS_PER_MINUTE} tickets per account and minute are issued (429 beyond either).`,
    tags: ['live'],
    query: z.object({ sessionKey }),
    responses: {
      200: z.object({ success: z.literal(true), ticket: z.string(), expiresAt: z.string() }),
      ...errors(400, 401, 403, 429, 503),
    },
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/live/events',
    auth: 'public',
    summary: 'The live event stream (Server-Sent Events), opened with a ticket',
    description:
      'Events: `flag` (FlagEventData, with an increasing `id:`), `status` (StatusEventData), ' +
      '`preferences` (PreferencesDocument, no `id:`; sent to every stream of the account when they change), ' +
      "`devices` (`{}`: a companion's lights or presence changed; read `GET /api/devices` again), " +
      "`test` (`{state, requestedAt}`, to the account's companion streams only: play a test flag now) and " +
      '`unlinked` just before the stream of an unlinked companion closes (its token now gets 401). ' +
      'Resume with the Last-Event-ID header or `lastEventId`. Authenticated by the one-time `ticket`, ' +
      'never by the session token.',
    tags: ['live'],
    query: z.object({
      ticket: safeString('ticket', { min: 1, max: 200 }),
      sessionKey,
      lastEventId: safeString('lastEventId', { max: 20 }).optional(),
    }),
    produces: 'text/event-stream',
    // 403: the ticket was issued for another session; 429: the account's streams are all open;
    // 503 (with Retry-After): this instance holds all the streams it takes.
    responses: { ...errors(400, 401, 403, 404, 429, 503) },
  }),
  state: defineRoute({
    method: 'GET',
    path: '/api/live/state',
    auth: 'device',
    plan: 'live',
    summary: "A session's current flag (the polling fallback of the stream)",
    tags: ['live'],
    query: z.object({ sessionKey }),
    responses: {
      200: z.object({
        success: z.literal(true),
        sessionKey: z.number(),
        id: z.number().nullable(),
        flag: FlagEventDataSchema.nullable(),
        upstream: StatusEventDataSchema.nullable(),
      }),
      ...errors(400, 401, 403, 404),
    },
  }),
  sources: defineRoute({
    method: 'GET',
    path: '/api/live/sources',
    auth: 'public',
    summary: 'The live sources and their health: which one drives the lights now',
    description:
      "`f1-live-timing` (F1's own feed; absent when the server runs with `F1_LIVE_TIMING=off`) is " +
      '`active` while it answers; `openf1` is `standby` behind it, or `active` when F1 live timing is ' +
      'down. `down`: no answer or data lately (`error` says why). `lastMessageAt`: the last data or ' +
      'good answer (ISO). Public, like the calendar: it names no user and no secret.',
    tags: ['live'],
    responses: {
      200: z.array(
        z.object({
          name: z.enum(['f1-live-timing', 'openf1']),
          state: z.enum(['active', 'standby', 'down']),
          lastMessageAt: z.string().nullable(),
          error: z.string().optional(),
        }),
      ),
      ...errors(429),
    },
  }),
  centralizedStatus: defineRoute({
    method: 'GET',
    path: '/api/sessions/centralized-status',
    auth: 'public',
    summary: 'Whether the server follows live sessions for its clients',
    tags: ['live'],
    responses: {
      200: z.object({
        success: z.literal(true),
        centralizedPollingEnabled: z.boolean(),
        isPollingActive: z.boolean(),
      }),
      ...errors(429),
    },
  }),
  openf1Proxy: defineRoute({
    method: 'GET',
    path: '/api/openf1/proxy/*',
    auth: 'user',
    plan: 'active',
    summary: 'OpenF1 /v1/sessions, /v1/location and /v1/race_control, cached and coalesced',
    // Not a zod query schema: OpenF1's operators live in the keys (`date>=…`, reference §1.3), so the
    // raw query string is checked and rewritten by the server's proxy (apps/server/src/openf1/proxy.ts).
    description:
      'Filters, each validated and rewritten to one canonical form (fixed order, duplicates dropped, ' +
      'times in UTC), so every spelling of one question shares one cached upstream call. ' +
      '`/v1/sessions`: `session_key` and `meeting_key` (a number or `latest`), `year`. ' +
      '`/v1/location`: `session_key` (required), `driver_number` (up to 4), `date` with `>`, `>=`, `<`, ' +
      '`<=` (one lower and one upper bound). `/v1/race_control`: `session_key` (required), `date>`. ' +
      'Any other endpoint or parameter is a 400 `invalid_input` naming it.',
    tags: ['live'],
    params: z.object({ '*': z.string() }),
    responses: {
      200: z.array(z.looseObject({})).describe("OpenF1's records, as OpenF1 sends them"),
      ...errors(400, 401, 403, 429, 502, 504),
    },
  }),
};

export const ReplayStartBodySchema = z.object({
  source: z.enum(['bundled', 'openf1']).default('bundled'),
  id: safeString('id', { min: 1, max: 100 }),
  speed: z.number().min(MIN_REPLAY_SPEED).max(MAX_REPLAY_SPEED).default(1),
  startMinutes: z.number().min(0).max(MAX_REPLAY_START_MINUTES).default(0),
});

/** What a started replay is: the recording, its speed and where it starts. */
export const ReplayInfoSchema = z.object({
  source: z.enum(['bundled', 'openf1']),
  id: z.string(),
  meetingName: z.string().optional(),
  sessionName: z.string().optional(),
  year: z.number().optional(),
  speed: z.number(),
  startMinutes: z.number(),
});
export type ReplayInfo = z.infer<typeof ReplayInfoSchema>;

export const replayRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/replays',
    auth: 'public',
    summary: 'Sessions that can be replayed: bundled ones, and OpenF1 history for a year',
    tags: ['replays'],
    query: z.object({ year: z.coerce.number().int().min(2018).max(2100).optional() }),
    responses: {
      200: z.object({
        success: z.literal(true),
        sessions: z.array(ReplayChoiceSchema),
        message: z.string().optional(),
      }),
      ...errors(400),
    },
  }),
  start: defineRoute({
    method: 'POST',
    path: '/api/replays',
    auth: 'user',
    summary: 'Start a replay; stream it with the session key it answers',
    description:
      `An account runs at most ${MAX_REPLAYS_PER_ACCOUNT} replays: starting another ends its oldest (its ` +
      `streams close), so a fan is never refused for their own. At most ${MAX_REPLAYS_PER_ADDRESS} ` +
      'run from one client address (an IPv6 /64), and 200 on one server instance; past either, 429. ' +
      'A replay nobody reads (no open stream, no state poll) ends a minute after its last reader left. ' +
      '30 starts per client address and minute.',
    tags: ['replays'],
    body: ReplayStartBodySchema,
    responses: {
      200: z.object({
        success: z.literal(true),
        sessionKey: z.number(),
        ...ReplayInfoSchema.shape,
      }),
      ...errors(400, 401, 404, 429, 502, 503),
    },
  }),
};

export const scheduleRoutes = {
  schedule: defineRoute({
    method: 'GET',
    path: '/api/f1/schedule',
    auth: 'public',
    summary: "The season's race calendar (bundled calendar when Jolpica fails)",
    tags: ['schedule'],
    responses: {
      200: z.object({
        success: z.literal(true),
        season: z.string(),
        races: z.array(RaceSchema.loose()),
        fallback: z.boolean(),
        message: z.string().optional(),
      }),
      ...errors(429),
    },
  }),
  current: defineRoute({
    method: 'GET',
    path: '/api/f1/current',
    auth: 'public',
    summary: 'The live session, or else the next race weekend',
    tags: ['schedule'],
    responses: {
      200: z.object({
        success: z.literal(true),
        live: z.boolean(),
        data: z.union([CurrentLiveSessionDataSchema, CurrentRaceDataSchema]).nullable(),
        fallback: z.boolean().optional(),
        message: z.string().optional(),
      }),
      ...errors(429),
    },
  }),
};
