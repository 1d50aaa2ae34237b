import type { ReplayChoice } from '@flaglight/core';
import { apiRequest } from '../api/client';

export type { ReplayChoice } from '@flaglight/core';

export const MIN_REPLAY_SPEED = 1;
export const MAX_REPLAY_SPEED = 20;
export const DEFAULT_REPLAY_SPEED = 10;
/** The server's limit for a start minute. */
export const MAX_START_MINUTES = 600;

function parseChoice(value: unknown): ReplayChoice | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if ((v.source !== 'bundled' && v.source !== 'openf1') || typeof v.id !== 'string') return null;
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  return {
    source: v.source,
    id: v.id,
    year: num(v.year) ?? 0,
    meetingName: text(v.meetingName),
    sessionName: text(v.sessionName),
    sessionType: text(v.sessionType),
    dateStart: text(v.dateStart),
    suggestedStartMinutes: num(v.suggestedStartMinutes) ?? 0,
    lengthMinutes: num(v.lengthMinutes),
  };
}

export function replayTitle(choice: Pick<ReplayChoice, 'year' | 'meetingName' | 'sessionName'>): string {
  return `${choice.year} ${choice.meetingName || 'Session'} – ${choice.sessionName || 'Session'}`;
}

/** `GET /api/replays[?year=]`: the bundled recordings, plus OpenF1's sessions of that year when online. */
export async function fetchReplays(
  year?: number,
): Promise<{ sessions: ReplayChoice[]; message: string | null }> {
  const body = await apiRequest<{ sessions?: unknown; message?: unknown }>(
    year === undefined ? '/api/replays' : `/api/replays?year=${year}`,
  );
  const sessions = (Array.isArray(body.sessions) ? body.sessions : [])
    .map(parseChoice)
    .filter((c): c is ReplayChoice => c !== null);
  return { sessions, message: typeof body.message === 'string' ? body.message : null };
}

/** `POST /api/replays`: starts a replay on the server; its session key is then followed like a live one. */
export async function startReplay(input: {
  source: ReplayChoice['source'];
  id: string;
  speed: number;
  startMinutes: number;
}): Promise<number> {
  const body = await apiRequest<{ sessionKey?: unknown }>('/api/replays', { method: 'POST', body: input });
  if (typeof body.sessionKey !== 'number') throw new Error('The server did not start the replay.');
  return body.sessionKey;
}
