import { z } from 'zod';
import { FLAG_SOURCES } from '../flags/fusion.js';
import { LIGHT_STATES } from '../flags/types.js';
import { FlagTimelineSchema } from '../timeline/flag-timeline.js';

// The live stream's wire shapes (DESIGN §5.4), shared by the server that sends them and the
// clients (web app, companion) that read them. The types are inferred from these schemas.

/**
 * The data of an SSE `flag` event. `safetyCar` (true while the track-wide state is a safety car;
 * the state stays `yellow`) and `cause.source`/`cause.status` (which feed, and the TrackStatus
 * code) came with decision 018: optional, so events sent before them still parse.
 */
export const FlagEventDataSchema = z
  .object({
    sessionKey: z.number(),
    state: z.enum(LIGHT_STATES),
    activeSectors: z.array(z.number()),
    safetyCar: z.boolean().optional(),
    cause: z.object({
      date: z.string(),
      message: z.string(),
      source: z.enum(FLAG_SOURCES).optional(),
      status: z.string().optional(),
    }),
    emittedAt: z.string(),
  })
  .meta({ id: 'FlagEventData' });
export type FlagEventData = z.infer<typeof FlagEventDataSchema>;

/** A flag event with its stream id (increasing per session, across follower restarts). */
export const FlagEventSchema = z.object({ id: z.number(), data: FlagEventDataSchema });
export type FlagEvent = z.infer<typeof FlagEventSchema>;

export const UPSTREAM_STATUSES = ['starting', 'ok', 'rate-limited', 'unauthorized', 'error'] as const;
export const UpstreamStatusSchema = z.enum(UPSTREAM_STATUSES);
export type UpstreamStatus = z.infer<typeof UpstreamStatusSchema>;

/** How the follower of a session is doing upstream; sent as an SSE `status` event (no id). */
export const StatusEventDataSchema = z
  .object({
    sessionKey: z.number(),
    upstream: UpstreamStatusSchema,
    transport: z.enum(['push', 'polling', 'replay', 'none']),
    /** SPEC §8 text while upstream is failing, else null. */
    message: z.string().nullable(),
  })
  .meta({ id: 'StatusEventData' });
export type StatusEventData = z.infer<typeof StatusEventDataSchema>;

/** One session that can be replayed (`GET /api/replays`): bundled with the app, or from OpenF1. */
export const ReplayChoiceSchema = z
  .object({
    source: z.enum(['bundled', 'openf1']),
    id: z.string(),
    year: z.number(),
    meetingName: z.string(),
    sessionName: z.string(),
    sessionType: z.string(),
    dateStart: z.string(),
    /** Minutes into the recording where the session gets going (its first green light). */
    suggestedStartMinutes: z.number(),
    messages: z.number().optional(),
    lengthMinutes: z.number().nullable().optional(),
    /** The session in one picture, on the replay's clock (ms after its first record); bundled ones only. */
    timeline: FlagTimelineSchema.optional(),
  })
  .meta({ id: 'ReplayChoice' });
export type ReplayChoice = z.infer<typeof ReplayChoiceSchema>;
