/** One run of the race stretch with the account's delay at `delaySeconds`, and its packets attributed. */
import { sleep } from '../shared/time.js';
import { waitFor } from '../shared/wait-for.js';
import { attribute, type PhaseResult } from './attribution.js';
import { companionStatus } from './companion-process.js';
import { RACE_MS, SET_TYPES, SPEED, START_MINUTES } from './config.js';
import { type EventStream } from './event-stream.js';
import { receiveLog, type Received, setDelay, setReplay, setSpeed } from './server-api.js';
import { type Rig } from './setup.js';

export async function runRace(rig: Rig, stream: EventStream, delaySeconds: number): Promise<PhaseResult> {
  const { base, token, sessionKey, bulbs, companion } = rig;
  const delayMs = delaySeconds * 1000;
  // The stretch again from its start, paused, and the delay for this run.
  await setReplay(base, sessionKey, START_MINUTES, 1);
  await setSpeed(base, 0);
  await setDelay(base, token, delaySeconds);
  await waitFor(
    'this process to follow the session',
    async () => stream.sessionKey() === sessionKey,
    30_000,
    100,
  );
  await waitFor(
    'the companion to follow the session with the delay',
    async () => {
      const s = await companionStatus(companion.port);
      return s.stream.state === 'following' && s.session?.sessionKey === sessionKey && s.delayMs === delayMs;
    },
    30_000,
    200,
  );
  // The snapshot's look goes out first (after the delay).
  await sleep(delayMs + 1_500);
  const start = Date.now();
  await setSpeed(base, SPEED);
  await sleep(RACE_MS);
  await setSpeed(base, 0);
  const stopAt = Date.now();
  await sleep(delayMs + 5_000);
  const end = Date.now();
  const logs = new Map<string, Received[]>();
  let truncated = false;
  let otherPackets = 0;
  for (const id of bulbs) {
    const log = await receiveLog(base, id);
    if (log.length >= 1000 && (log[0]?.at ?? 0) > start) truncated = true;
    const inPhase = log.filter((p) => p.at >= start && p.at <= end);
    otherPackets += inPhase.filter((p) => !SET_TYPES.has(p.type)).length;
    logs.set(id, inPhase);
  }
  const ours = stream.arrivals.filter((a) => a.sessionKey === sessionKey);
  const previousState = ours.filter((a) => a.arrivedAt < start).at(-1)?.state ?? null;
  const arrivals = ours.filter((a) => a.arrivedAt >= start && a.arrivedAt <= stopAt);
  const { changes, repeats } = attribute(arrivals, previousState, delayMs, logs, end);
  return { delayMs, changes, repeats, otherPackets, bulbs: bulbs.length, spanMs: end - start, truncated };
}
