import { z } from 'zod';

/** A Jolpica (Ergast) session: date `YYYY-MM-DD`, time `HH:MM:SSZ` (UTC), both strings. */
export const RaceSessionTimeSchema = z.object({ date: z.string(), time: z.string().optional() });
export type RaceSessionTime = z.infer<typeof RaceSessionTimeSchema>;

export const CircuitSchema = z.object({
  circuitId: z.string(),
  url: z.string().optional(),
  circuitName: z.string(),
  Location: z.object({
    lat: z.string(),
    long: z.string(),
    locality: z.string(),
    country: z.string(),
  }),
});
export type Circuit = z.infer<typeof CircuitSchema>;

/** SPEC §3 Race, in the Jolpica shape (every value a string). */
export const RaceSchema = z.object({
  season: z.string(),
  round: z.string(),
  url: z.string().optional(),
  raceName: z.string(),
  Circuit: CircuitSchema,
  date: z.string(),
  time: z.string().optional(),
  FirstPractice: RaceSessionTimeSchema.optional(),
  SecondPractice: RaceSessionTimeSchema.optional(),
  ThirdPractice: RaceSessionTimeSchema.optional(),
  Qualifying: RaceSessionTimeSchema.optional(),
  Sprint: RaceSessionTimeSchema.optional(),
  SprintShootout: RaceSessionTimeSchema.optional(),
  SprintQualifying: RaceSessionTimeSchema.optional(),
});
export type Race = z.infer<typeof RaceSchema>;

/** A Jolpica season response: `MRData.RaceTable.Races`. */
export const SeasonResponseSchema = z.object({
  MRData: z.object({ RaceTable: z.object({ season: z.string().optional(), Races: z.array(RaceSchema) }) }),
});
export type SeasonResponse = z.infer<typeof SeasonResponseSchema>;

/** SPEC §3 Current-race response when the data is a race weekend. */
export const CurrentRaceDataSchema = z.object({
  name: z.string(),
  slug: z.string(),
  round: z.number(),
  location: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  sessions: z.object({
    fp1: z.string().nullable().optional(),
    fp2: z.string().nullable().optional(),
    fp3: z.string().nullable().optional(),
    qualifying: z.string().nullable().optional(),
    gp: z.string().nullable().optional(),
  }),
});
export type CurrentRaceData = z.infer<typeof CurrentRaceDataSchema>;

/** SPEC §3 Current-race response when the data is a live session. */
export const CurrentLiveSessionDataSchema = z.object({
  name: z.string(),
  date_start: z.string(),
  date_end: z.string(),
  type: z.string(),
  race_name: z.string(),
  circuit_name: z.string(),
});
export type CurrentLiveSessionData = z.infer<typeof CurrentLiveSessionDataSchema>;

export const CurrentRaceResponseSchema = z.object({
  success: z.boolean(),
  data: z.union([CurrentRaceDataSchema, CurrentLiveSessionDataSchema]).nullable().optional(),
});
export type CurrentRaceResponse = z.infer<typeof CurrentRaceResponseSchema>;

/** SPEC §3 Session summary. */
export const SessionSummarySchema = z.object({
  session_name: z.string(),
  date: z.string(),
  time: z.string(),
  date_start: z.string(),
  date_end: z.string(),
  session_type: z.string(),
  race_name: z.string(),
  circuit_name: z.string(),
  is_active: z.boolean(),
  delayed: z.boolean().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** SPEC §3 Live session from OpenF1 /v1/sessions; unknown fields ignored. */
export const LiveSessionSchema = z.object({
  session_key: z.number(),
  session_name: z.string().nullable(),
  session_type: z.string().nullable(),
  date_start: z.string(),
  date_end: z.string().nullable().optional(),
  meeting_key: z.number().optional(),
  circuit_short_name: z.string().nullable().optional(),
  location: z.string().nullable().optional(),
  country_name: z.string().nullable().optional(),
  year: z.number().optional(),
  is_cancelled: z.boolean().optional(),
});
export type LiveSession = z.infer<typeof LiveSessionSchema>;
