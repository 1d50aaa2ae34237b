import type { ApiRoutes, RouteInput, RouteOutput } from '@flaglight/contract';
import {
  LIGHT_STATES,
  type CurrentLiveSessionData,
  type CurrentRaceData,
  type FlagEvent,
  type FlagEventData,
  type LightState,
  type StatusEventData,
  type UpstreamStatus,
} from '@flaglight/core';
import { apiCall } from '../api/client';

export type { FlagEvent, FlagEventData, StatusEventData, UpstreamStatus } from '@flaglight/core';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLightState(value: unknown): value is LightState {
  return typeof value === 'string' && (LIGHT_STATES as readonly string[]).includes(value);
}

/**
 * Reads a stream event's flag data (an EventSource hands over text, not the contract's types);
 * anything malformed gives null (the server is trusted, the wire is not).
 */
export function parseFlagEventData(value: unknown): FlagEventData | null {
  if (!isRecord(value) || !isLightState(value.state)) return null;
  const sectors = Array.isArray(value.activeSectors)
    ? value.activeSectors.filter((s): s is number => typeof s === 'number')
    : [];
  const cause = isRecord(value.cause) ? value.cause : {};
  return {
    sessionKey: typeof value.sessionKey === 'number' ? value.sessionKey : 0,
    state: value.state,
    activeSectors: sectors,
    cause: {
      date: typeof cause.date === 'string' ? cause.date : '',
      message: typeof cause.message === 'string' ? cause.message : '',
    },
    emittedAt: typeof value.emittedAt === 'string' ? value.emittedAt : '',
  };
}

const UPSTREAM: readonly UpstreamStatus[] = ['starting', 'ok', 'rate-limited', 'unauthorized', 'error'];
const TRANSPORTS: readonly StatusEventData['transport'][] = ['push', 'polling', 'replay', 'none'];

export function parseStatusEventData(value: unknown): StatusEventData | null {
  if (!isRecord(value) || !UPSTREAM.includes(value.upstream as UpstreamStatus)) return null;
  return {
    sessionKey: typeof value.sessionKey === 'number' ? value.sessionKey : 0,
    upstream: value.upstream as UpstreamStatus,
    transport: TRANSPORTS.find((transport) => transport === value.transport) ?? 'none',
    message: typeof value.message === 'string' && value.message !== '' ? value.message : null,
  };
}

/**
 * `POST /api/live/ticket`: a one-time ticket for the event stream (30 s), for the given session
 * (a replay stays free after the trial; the ticket then opens only that session).
 */
export async function requestStreamTicket(sessionKey?: number, signal?: AbortSignal): Promise<string> {
  const { ticket } = await apiCall('POST /api/live/ticket', { query: { sessionKey } }, { signal });
  return ticket;
}

export interface LiveStateAnswer {
  sessionKey: number;
  event: FlagEvent | null;
  upstream: StatusEventData | null;
}

/** `GET /api/live/state`: the current state of a session (the stream's fallback). */
export async function fetchLiveState(sessionKey?: number, signal?: AbortSignal): Promise<LiveStateAnswer> {
  const state = await apiCall('GET /api/live/state', { query: { sessionKey } }, { signal });
  return {
    sessionKey: state.sessionKey,
    event: state.flag && state.id !== null ? { id: state.id, data: state.flag } : null,
    upstream: state.upstream,
  };
}

export interface CentralizedStatus {
  centralizedPollingEnabled: boolean;
  isPollingActive: boolean;
}

/** `GET /api/sessions/centralized-status` (SPEC §4 Polling). */
export async function fetchCentralizedStatus(): Promise<CentralizedStatus> {
  const { centralizedPollingEnabled, isPollingActive } = await apiCall(
    'GET /api/sessions/centralized-status',
  );
  return { centralizedPollingEnabled, isPollingActive };
}

export type CurrentSession =
  | { kind: 'live'; session: CurrentLiveSessionData }
  | { kind: 'upcoming'; race: CurrentRaceData }
  | { kind: 'none' };

function isLiveSessionData(data: CurrentLiveSessionData | CurrentRaceData): data is CurrentLiveSessionData {
  return 'date_start' in data;
}

/** `GET /api/f1/current`: the live session, else the next race weekend. */
export async function fetchCurrentSession(signal?: AbortSignal): Promise<CurrentSession> {
  const { live, data } = await apiCall('GET /api/f1/current', undefined, { signal });
  if (data === null) return { kind: 'none' };
  if (!isLiveSessionData(data)) return { kind: 'upcoming', race: data };
  return live ? { kind: 'live', session: data } : { kind: 'none' };
}

type TrackedSessionData = RouteInput<ApiRoutes['POST /api/sessions/track']>['body']['sessionData'];

/** `POST /api/sessions/track`: starts tracking the session (its end sends the post-race e-mail). */
export async function trackSession(sessionData: TrackedSessionData): Promise<string> {
  const { sessionId } = await apiCall('POST /api/sessions/track', { body: { sessionData } });
  return sessionId;
}

/** `POST /api/sessions/end`. */
export async function endTrackedSession(sessionId: string): Promise<void> {
  await apiCall('POST /api/sessions/end', { body: { sessionId } });
}

export type LiveSourceView = RouteOutput<ApiRoutes['GET /api/live/sources']>[number];

/** `GET /api/live/sources`: which live source drives the lights, and how each is doing. */
export async function fetchLiveSources(signal?: AbortSignal): Promise<LiveSourceView[]> {
  return apiCall('GET /api/live/sources', undefined, { signal });
}
