import type { ReplayChoice } from '@flaglight/core';
import { apiCall } from '../api/client';

export type { ReplayChoice } from '@flaglight/core';

export {
  MAX_REPLAY_SPEED,
  MIN_REPLAY_SPEED,
  MAX_REPLAY_START_MINUTES as MAX_START_MINUTES,
  MAX_REPLAYS_PER_ACCOUNT,
} from '@flaglight/contract/limits';
export const DEFAULT_REPLAY_SPEED = 10;

export function replayTitle(choice: Pick<ReplayChoice, 'year' | 'meetingName' | 'sessionName'>): string {
  return `${choice.year} ${choice.meetingName || 'Session'} – ${choice.sessionName || 'Session'}`;
}

/** `GET /api/replays[?year=]`: the bundled recordings, plus OpenF1's sessions of that year when online. */
export async function fetchReplays(
  year?: number,
): Promise<{ sessions: ReplayChoice[]; message: string | null }> {
  const { sessions, message } = await apiCall('GET /api/replays', { query: { year } });
  return { sessions, message: message ?? null };
}

/** `POST /api/replays`: starts a replay on the server; its session key is then followed like a live one. */
export async function startReplay(input: {
  source: ReplayChoice['source'];
  id: string;
  speed: number;
  startMinutes: number;
}): Promise<number> {
  const { sessionKey } = await apiCall('POST /api/replays', { body: input });
  return sessionKey;
}
