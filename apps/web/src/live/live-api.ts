import {
  CurrentLiveSessionDataSchema,
  CurrentRaceDataSchema,
  LIGHT_STATES,
  type CurrentLiveSessionData,
  type CurrentRaceData,
  type FlagEvent,
  type FlagEventData,
  type LightState,
  type StatusEventData,
  type UpstreamStatus,
} from '@flaglight/core';
import { apiRequest } from '../api/client';

export type { FlagEvent, FlagEventData, StatusEventData, UpstreamStatus } from '@flaglight/core';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLightState(value: unknown): value is LightState {
  return typeof value === 'string' && (LIGHT_STATES as readonly string[]).includes(value);
}

/** Reads a flag event's data; anything malformed gives null (the server is trusted, the wire is not). */
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

/** `POST /api/live/ticket`: a one-time ticket for the event stream (30 s). */
export async function requestStreamTicket(): Promise<string> {
  const body = await apiRequest<{ ticket?: unknown }>('/api/live/ticket', { method: 'POST', body: {} });
  if (typeof body.ticket !== 'string' || body.ticket === '') throw new Error('No stream ticket');
  return body.ticket;
}

export interface LiveStateAnswer {
  sessionKey: number;
  event: FlagEvent | null;
  upstream: StatusEventData | null;
}

/** `GET /api/live/state`: the current state of a session (the stream's fallback). */
export async function fetchLiveState(sessionKey?: number, signal?: AbortSignal): Promise<LiveStateAnswer> {
  const query = sessionKey === undefined ? '' : `?sessionKey=${sessionKey}`;
  const body = await apiRequest<Record<string, unknown>>(`/api/live/state${query}`, { signal });
  const data = parseFlagEventData(body.flag);
  const id = typeof body.id === 'number' ? body.id : null;
  return {
    sessionKey: typeof body.sessionKey === 'number' ? body.sessionKey : (sessionKey ?? 0),
    event: data && id !== null ? { id, data } : null,
    upstream: parseStatusEventData(body.upstream),
  };
}

export interface CentralizedStatus {
  centralizedPollingEnabled: boolean;
  isPollingActive: boolean;
}

/** `GET /api/sessions/centralized-status` (SPEC §4 Polling). */
export async function fetchCentralizedStatus(): Promise<CentralizedStatus> {
  const body = await apiRequest<Record<string, unknown>>('/api/sessions/centralized-status');
  return {
    centralizedPollingEnabled: body.centralizedPollingEnabled === true,
    isPollingActive: body.isPollingActive === true,
  };
}

export type CurrentSession =
  | { kind: 'live'; session: CurrentLiveSessionData }
  | { kind: 'upcoming'; race: CurrentRaceData }
  | { kind: 'none' };

/** `GET /api/f1/current`: the live session, else the next race weekend. */
export async function fetchCurrentSession(signal?: AbortSignal): Promise<CurrentSession> {
  const body = await apiRequest<Record<string, unknown>>('/api/f1/current', { signal });
  if (body.live === true) {
    const live = CurrentLiveSessionDataSchema.safeParse(body.data);
    if (live.success) return { kind: 'live', session: live.data };
  }
  const race = CurrentRaceDataSchema.safeParse(body.data);
  return race.success ? { kind: 'upcoming', race: race.data } : { kind: 'none' };
}

/** `POST /api/sessions/track`: starts tracking the session (its end sends the post-race e-mail). */
export async function trackSession(sessionData: Record<string, unknown>): Promise<string> {
  const body = await apiRequest<{ sessionId?: unknown }>('/api/sessions/track', {
    method: 'POST',
    body: { sessionData },
  });
  if (typeof body.sessionId !== 'string') throw new Error('No tracked session id');
  return body.sessionId;
}

/** `POST /api/sessions/end`. */
export async function endTrackedSession(sessionId: string): Promise<void> {
  await apiRequest('/api/sessions/end', { method: 'POST', body: { sessionId } });
}
